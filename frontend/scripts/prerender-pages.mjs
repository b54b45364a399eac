// Renders every drink, category and content page of a running shop, with its data, so a deep link paints the
// real page before any script has run. Run once the shop answers: by the local gateway when it starts and
// whenever its build changes (and by scripts/with-gateway.sh), and by `make publish` against the live shop.
//
//   node frontend/scripts/prerender-pages.mjs --api <the shop's address> --dist <the build> --out <pages>
//
// The pages come from the shop's sitemap (its drinks, policies, the shop list, about and contact) and its
// categories (the shop list with ?category=<id>). Each is rendered by the build's server bundle
// (<the build>/.prerender/, from src/prerender.tsx) through the app's own calls, and written to
// <pages>/<path>/index.html, a category's to <pages>/shop/drinks/category/<escaped id>/index.html; the gateway
// and CloudFront serve these (frontend/src/app/knownPaths.json says which paths may have one). Nothing is
// written into the build, which other shops may be serving: the local gateway keeps its pages with its state,
// a publish in the copy it uploads. <pages>/.build-id says which build the pages were made for (the gateway
// serves them only with that build). The page keeps what the shop said when it was rendered; in the browser
// the app asks again before it takes the page over (main.tsx), so a shopper sees the live price and stock as
// soon as the script runs. Pages from an earlier run that the shop no longer has (a deleted drink) are
// removed: <pages>/prerendered.json lists what the last run wrote.
import { existsSync, mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { pageBoot } from './page-boot.mjs';

function argument(name) {
  const at = process.argv.indexOf(`--${name}`);
  const value = at === -1 ? undefined : process.argv[at + 1];
  if (!value) throw new Error(`usage: prerender-pages.mjs --api <shop address> --dist <the build> --out <pages>; --${name} is missing`);
  return value;
}

const api = new URL(argument('api'));
// The build itself, not the link to it (frontend/dist): a new build linked meanwhile changes nothing here.
const dist = realpathSync(resolve(argument('dist')));
const out = resolve(argument('out'));
const ssrDir = join(dist, '.prerender');
for (const needed of [join(ssrDir, 'prerender.js'), join(ssrDir, 'template.html'), join(dist, '.vite', 'manifest.json')]) {
  if (!existsSync(needed)) throw new Error(`${needed} is missing: build the storefront first (cd frontend && npm run build)`);
}
const buildId = existsSync(join(dist, '.build-id')) ? readFileSync(join(dist, '.build-id'), 'utf8').trim() : '';

// What the app reads of the browser while it renders: where it is (its API calls and the structured data's
// addresses are relative to it). Set before the bundle loads.
globalThis.window = globalThis;
globalThis.location = api;
const { renderPage } = await import(pathToFileURL(join(ssrDir, 'prerender.js')).href);

/** A category's directory name: every UTF-16 unit outside [A-Za-z0-9-] becomes _<hex>_ (knownPaths.json). */
function escapeSegment(text) {
  return text.replace(/[^A-Za-z0-9-]/g, (unit) => `_${unit.charCodeAt(0).toString(16)}_`);
}

/** Where a page's file goes, relative to the pages' folder: its path without the query, a category's apart. */
function fileFor(url) {
  const { pathname, searchParams } = new URL(url, api);
  // Decoded, as S3 and the gateway read a key from the address; a segment that would climb is refused.
  const segments = pathname.split('/').filter(Boolean).map(decodeURIComponent);
  if (segments.some((segment) => segment === '.' || segment === '..' || /[\\/]/.test(segment))) throw new Error(`no file for ${url}`);
  const category = searchParams.get('category');
  return join(...segments, ...(category === null ? [] : ['category', escapeSegment(category)]), 'index.html');
}

async function getJson(path) {
  const response = await fetch(new URL(path, api), { headers: { Accept: 'application/json' } });
  if (!response.ok) throw new Error(`GET ${path} answered ${response.status}`);
  return response.json();
}

/** The pages to render: the sitemap's drinks, policies and content pages, and a page per category. */
async function pagesToRender() {
  const response = await fetch(new URL('/sitemap.xml', api));
  if (!response.ok) throw new Error(`GET /sitemap.xml answered ${response.status}`);
  const sitemap = await response.text();
  const paths = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)]
    .map(([, loc]) => new URL(loc.replaceAll('&amp;', '&')).pathname)
    // Home has its own prerender (dist/index.html); the reviews page is a list that changes by the hour.
    .filter((path) => path !== '/' && !/^\/[^/]+\/review$/.test(path));
  const shop = paths.find((path) => /^\/shop\/[^/]+\/$/.test(path)) ?? '/shop/drinks/';
  const categories = await getJson('/api/category/');
  for (const { _id } of categories) paths.push(`${shop}?category=${encodeURIComponent(_id)}`);
  return [...new Set(paths)];
}

const manifest = JSON.parse(readFileSync(join(dist, '.vite', 'manifest.json'), 'utf8'));

/**
 * The scripts and styles the shopper screens' chunk brings beyond the entry's (which index.html already has):
 * preloaded with the page, so they arrive beside the entry rather than after it.
 */
function pagesChunkFiles() {
  const pages = Object.entries(manifest).find(([, chunk]) => chunk.name === 'pages');
  if (!pages) throw new Error("the build's manifest has no 'pages' chunk");
  const scripts = new Set();
  const styles = new Set();
  const visit = (key) => {
    const chunk = manifest[key];
    if (!chunk || chunk.isEntry || scripts.has(chunk.file)) return;
    scripts.add(chunk.file);
    for (const css of chunk.css ?? []) styles.add(css);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  visit(pages[0]);
  return { scripts: [...scripts], styles: [...styles] };
}
const pageFiles = pagesChunkFiles();

// The pages' boot script, which the build holds (scripts/page-boot.mjs, written by scripts/prerender.mjs).
const bootFile = pageBoot().file;
if (!existsSync(join(dist, bootFile))) throw new Error(`${join(dist, bootFile)} is missing: build the storefront again (cd frontend && npm run build)`);

const attribute = (text) => text.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
const template = readFileSync(join(ssrDir, 'template.html'), 'utf8');
// The app's entry script: a copy loads it from its boot script, after the page's main picture.
const entry = /<script type="module" crossorigin src="([^"]+)"><\/script>\s*/.exec(template);
if (!entry) throw new Error('the template has no entry script');

/**
 * Until the app takes the page over its controls do nothing, and whatever was typed into them would be
 * replaced with the page: they are disabled in the copy (links work without the app, and stay as they are).
 */
const untilTheAppRuns = (html) => html.replace(/<(button|input|select|textarea)\b/g, '<$1 disabled');

function document(page, calls, files) {
  const { meta } = page;
  const boot =
    `<script src="/${bootFile}" data-entry="${attribute(entry[1])}" ` +
    `data-modules="${attribute(JSON.stringify(files.scripts.map((js) => `/${js}`)))}" data-prefetch="${attribute(JSON.stringify(calls))}"></script>`;
  const styles = files.styles.map((css) => `<link rel="stylesheet" crossorigin href="/${css}">`).join('');
  let html = template
    .replace(entry[0], '')
    .replace('<div id="root"></div>', () => `<div id="root" data-prerendered>${untilTheAppRuns(page.html)}</div>${boot}`)
    .replace('</head>', () => `${styles}</head>`);
  if (meta) {
    html = html
      .replace(/<title>[^<]*<\/title>/, () => `<title>${attribute(meta.title)}</title>`)
      .replace(/(<meta\s+name="description"\s+content=")[^"]*(")/, (_, a, b) => a + attribute(meta.description) + b)
      .replace(/(<meta\s+property="og:title"\s+content=")[^"]*(")/, (_, a, b) => a + attribute(meta.title) + b)
      .replace(/(<meta\s+property="og:description"\s+content=")[^"]*(")/, (_, a, b) => a + attribute(meta.description) + b)
      .replace(/(<meta\s+property="og:type"\s+content=")[^"]*(")/, (_, a, b) => a + attribute(meta.type) + b);
  }
  return html;
}

mkdirSync(out, { recursive: true });
const listFile = join(out, 'prerendered.json');
const before = existsSync(listFile) ? JSON.parse(readFileSync(listFile, 'utf8')) : [];
const written = [];
const skipped = [];
for (const url of await pagesToRender()) {
  // The app's calls while it loads the page: each must succeed, or the page is left to the browser.
  const calls = [];
  const failed = [];
  const recording = async (input, init) => {
    const target = new URL(input instanceof Request ? input.url : input);
    const response = await fetch(target, init);
    calls.push(target.pathname + target.search);
    if (!response.ok) failed.push(`${target.pathname} answered ${response.status}`);
    return response;
  };
  const page = await renderPage(url, recording);
  if (!page || failed.length) {
    skipped.push(`${url}${failed.length ? ` (${failed.join(', ')})` : ''}`);
    continue;
  }
  const file = fileFor(url);
  mkdirSync(dirname(join(out, file)), { recursive: true });
  writeFileSync(join(out, file), document(page, calls, pageFiles));
  written.push(file);
}
for (const file of before) {
  if (!written.includes(file) && !file.split(/[\\/]/).includes('..')) rmSync(join(out, file), { force: true });
}
writeFileSync(listFile, `${JSON.stringify(written, null, 2)}\n`);
writeFileSync(join(out, '.build-id'), `${buildId}\n`);
if (skipped.length) console.warn(`Not prerendered (the browser renders them): ${skipped.join('; ')}`);
console.log(`Prerendered ${written.length} pages (drinks, categories and content) into ${out}, for build ${buildId || '(no id)'}.`);
