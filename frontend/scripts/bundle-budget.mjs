// The bundle budget (make test's e2e step, and make bench): the JavaScript the home page loads first, gzipped,
// must stay within 90,000 bytes, and no admin module may be in it. Neither may immer: the first
// page's slices are plain (lib/plainSlice.ts) and its store takes Redux Toolkit through a copy of its own
// (lib/toolkit.ts), so createSlice and immer load with the screens (about 3.5 KB gzipped). The checkout
// (its feature folder and Stripe's libraries) must not be among the chunks the home and shop pages load at
// all: not in the first chunk, nor in any chunk those pages fetch later (the route table, the footer, the
// basket panel, the site info) or import statically. Reads the build's manifest (run `npm run build` first).
//
// "The home page's first JavaScript" is the entry chunk of index.html with every chunk it imports statically,
// and the boot script: what the first render needs. Chunks fetched beside or after it (the saving of the
// basket, the API client, home's drink cards, other routes, the basket panel when opened, the footer as it
// scrolls into view) are listed but not counted.
//
//   node scripts/bundle-budget.mjs            (from frontend/ or from the repository root)
//   BUDGET_BYTES=90000                        the limit, gzipped
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const DIST = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist');
const SRC = join(dirname(fileURLToPath(import.meta.url)), '..', 'src');
const BUDGET = Number(process.env.BUDGET_BYTES ?? 90_000);
/** Source modules that must never reach a shopper's first page. */
const ADMIN = /(^|\/)src\/admin\//;
/** Modules that belong to later screens' chunks: immer comes with createSlice (see src/lib/toolkit.ts). */
const LATER = /(^|\/)node_modules\/immer\//;
/** The checkout's modules: they load only when /checkout opens. */
const CHECKOUT = /(^|\/)(src\/features\/checkout\/|node_modules\/@stripe\/)/;
/**
 * What the home and shop pages load, besides the first chunk: the frame, the footer and the route table
 * (src/app), the state they read (src/state: the site info, the basket), and the features they show or open
 * (the basket panel, home's and shop's screens).
 */
const HOME_AND_SHOP = /(^|\/)src\/(app|state|features\/(home|shop|cart|header))\//;

function readJson(path) {
  if (!existsSync(path)) {
    console.error(`${path} is missing: run \`npm run build\` in frontend/ first.`);
    process.exit(2);
  }
  return JSON.parse(readFileSync(path, 'utf8'));
}

const manifest = readJson(join(DIST, '.vite', 'manifest.json'));
const chunkModules = readJson(join(DIST, '.vite', 'chunk-modules.json'));

/** The given chunks and everything they import statically: what the browser fetches with them. */
function withStaticImports(keys) {
  const seen = new Set();
  const visit = (key) => {
    if (seen.has(key)) return;
    seen.add(key);
    for (const imported of manifest[key]?.imports ?? []) visit(imported);
  };
  keys.forEach(visit);
  return [...seen];
}

const entry = Object.keys(manifest).find((key) => manifest[key].isEntry && key.endsWith('index.html'));
if (!entry) {
  console.error('No index.html entry in the manifest.');
  process.exit(2);
}

const initial = withStaticImports([entry]);
const gz = (file) => gzipSync(readFileSync(join(DIST, file)), { level: 9 }).length;
const kb = (bytes) => `${(bytes / 1000).toFixed(1)} KB`;

let total = 0;
const problems = [];
console.log('Home page, first JavaScript (gzipped):');
// Scripts written into index.html itself run on the home page too.
const html = readFileSync(join(DIST, 'index.html'), 'utf8');
const inline = [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map((match) => match[1]).join('\n');
if (inline.trim()) {
  const size = gzipSync(Buffer.from(inline), { level: 9 }).length;
  total += size;
  console.log(`  inline scripts in index.html  ${kb(size)}`);
}
// Classic scripts index.html loads beside the entry (the prerender's boot script) run on the home page too.
for (const [, file] of html.matchAll(/<script src="\/([^"]+)"><\/script>/g)) {
  const size = gz(file);
  total += size;
  console.log(`  ${file}  ${kb(size)}`);
}
for (const key of initial) {
  const { file } = manifest[key];
  const size = gz(file);
  total += size;
  const modules = chunkModules[file] ?? [];
  console.log(`  ${file}  ${kb(size)}  (${modules.length} modules)`);
  const admin = modules.filter((id) => ADMIN.test(id));
  if (admin.length) problems.push(`admin code in ${file}: ${admin.join(', ')}`);
  const later = modules.filter((id) => LATER.test(id));
  if (later.length) {
    problems.push(`${later.join(', ')} in ${file}: a first-page module imports '@reduxjs/toolkit' (use lib/toolkit.ts, lib/plainSlice.ts)`);
  }
}
if (initial.some((key) => ADMIN.test(key))) problems.push('an admin module is an initial chunk');

// React Router is one module: whatever of it any screen uses is in the first chunk. Its Link, NavLink and Form
// carry framework-mode code (prefetching, route discovery) the shop does not use: components/Link.tsx instead.
for (const entry of readdirSync(SRC, { recursive: true })) {
  const file = String(entry).replace(/\\/g, '/');
  if (!/\.tsx?$/.test(file) || /\.test\.tsx?$/.test(file)) continue;
  for (const [, names] of readFileSync(join(SRC, file), 'utf8').matchAll(/import\s*\{([^}]*)\}\s*from\s*'react-router'/g)) {
    const heavy = names.split(',').map((name) => name.trim()).filter((name) => /^(Link|NavLink|Form)$/.test(name));
    if (heavy.length) problems.push(`src/${file} imports React Router's ${heavy.join(', ')}: use components/Link.tsx (React Router's costs the first page about 2 KB)`);
  }
}

// The home and shop pages: the first chunk, then every chunk holding a module they use, with its imports.
const homeAndShop = withStaticImports([
  entry,
  ...Object.keys(manifest).filter((key) => (chunkModules[manifest[key].file] ?? []).some((id) => HOME_AND_SHOP.test(id))),
]);
for (const key of homeAndShop) {
  const checkout = (chunkModules[manifest[key].file] ?? []).filter((id) => CHECKOUT.test(id));
  if (checkout.length) problems.push(`the home or shop page loads checkout code, in ${manifest[key].file}: ${checkout.join(', ')}`);
}

const lazy = Object.keys(manifest).filter((key) => manifest[key].file.endsWith('.js') && !initial.includes(key));
const lazyBytes = lazy.reduce((sum, key) => sum + gz(manifest[key].file), 0);
const adminChunks = lazy.filter((key) => (chunkModules[manifest[key].file] ?? []).some((id) => ADMIN.test(id)));
// The stylesheet is linked from index.html (one file: the build does not split CSS).
const css = [...html.matchAll(/<link[^>]+rel="stylesheet"[^>]+href="\/([^"]+\.css)"/g)].map((match) => match[1]);
const cssBytes = css.reduce((sum, file) => sum + gz(file), 0);

console.log(`  total ${kb(total)} of ${kb(BUDGET)} (${total} bytes)`);
console.log(`Stylesheet (not counted): ${kb(cssBytes)} gzipped`);
console.log(`Loaded on demand: ${lazy.length} chunks, ${kb(lazyBytes)} gzipped; admin only: ${adminChunks.length} chunks`);

if (total > BUDGET) problems.push(`the home page's first JavaScript is ${total} bytes gzipped, over the ${BUDGET}-byte budget`);
if (problems.length) {
  for (const problem of problems) console.error(`FAIL: ${problem}`);
  process.exit(1);
}
console.log('Within budget; no admin code or immer on the first page; no checkout code on the home and shop pages.');
