// The shop's name as pages show it. Its own module so that the header (in the first page's script) can use
// it without pulling the page-meta code (lib/meta.ts), which only later screens need, into that script.
export const SITE_NAME = 'Palestine Drinks';
