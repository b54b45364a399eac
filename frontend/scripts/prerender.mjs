// After `vite build` and the SSR build of src/prerender.tsx: writes the first screen's static HTML into
// dist/index.html, plus a small inline script that keeps only the frame (banner and header) on paths other
// than '/', so a deep link never flashes the home page's hero.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
const ssrDir = join(root, 'node_modules', '.prerender');

const { render } = await import(pathToFileURL(join(ssrDir, 'prerender.js')).href);
const html = render('/');
if (!html.includes('id="main"')) throw new Error('the prerendered app has no <main id="main">');

// Runs while the page is parsed, before the first paint.
const boot = `<script>if(location.pathname!=="/")document.getElementById("main").replaceChildren()</script>`;

const indexPath = join(dist, 'index.html');
const index = readFileSync(indexPath, 'utf8');
if (!index.includes('<div id="root"></div>')) throw new Error('dist/index.html has no empty #root to fill');
const entry = /<script type="module" crossorigin src=/;
if (!entry.test(index)) throw new Error('dist/index.html has no entry script');
writeFileSync(
  indexPath,
  index
    .replace('<div id="root"></div>', `<div id="root">${html}</div>${boot}`)
    // The first paint needs only the HTML and CSS now: the script may queue behind them.
    .replace(entry, '<script type="module" fetchpriority="low" crossorigin src='),
);
rmSync(ssrDir, { recursive: true, force: true });
console.log(`Prerendered the first screen into dist/index.html (${html.length} characters).`);
