// After `vite build` and the SSR build of src/prerender.tsx (scripts/build.sh runs all three): writes the
// first screen's static HTML into the build's index.html, plus a small boot script that keeps only the frame
// (banner and header) on paths other than '/', so a deep link never flashes the home page's hero (and
// app-404.html, the same app for the drink pages CloudFront answers with 404); and 404.html, the page for
// unknown paths (served with status 404 by the gateway and CloudFront), with the 404 page prerendered. The
// boot scripts are files of their own, named by their content's hash, never inline: the
// Content-Security-Policy (template.yaml) allows no inline script. The drink, category and content pages'
// boot script is written here too (scripts/page-boot.mjs), so prerendering them later writes nothing into
// the build.
//
//   node scripts/prerender.mjs --dist <the build>      (its server bundle in <the build>/.prerender/)
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { pageBoot } from './page-boot.mjs';

const at = process.argv.indexOf('--dist');
if (at === -1 || !process.argv[at + 1]) throw new Error('usage: prerender.mjs --dist <the build>');
const dist = resolve(process.argv[at + 1]);
const ssrDir = join(dist, '.prerender');

const { render, renderNotFound, productRouteExclusions } = await import(pathToFileURL(join(ssrDir, 'prerender.js')).href);
const html = render('/');
if (!html.includes('id="main"')) throw new Error('the prerendered app has no <main id="main">');

// The shopper screens' chunk (every path but '/' needs it).
const manifest = JSON.parse(readFileSync(join(dist, '.vite', 'manifest.json'), 'utf8'));
const pages = Object.values(manifest).find((chunk) => chunk.name === 'pages' || /\/pages-[^/]+\.js$/.test(chunk.file));
if (!pages) throw new Error('no pages chunk in the manifest');
const { first, second } = productRouteExclusions();

// Runs while the page is parsed, before the first paint, and starts fetching what the page will need at once
// instead of one after another. On '/', the home call (GET /api/home/home/uk/), handed to the app's API client
// through window.__prefetched: so the home page's drinks never wait for the client's own chunk. Off '/', it
// empties <main> (the prerender is the home page's), preloads the screens' chunk and, on a product page
// (/{product}/{id}), fetches the drink (handed over the same way) and then preloads its first picture.
const boot =
  '(function(d,p){function f(k){return(window.__prefetched={})[k]=fetch(k,{headers:{Accept:"application/json"}})}' +
  'if(p==="/")return void f("/api/home/home/uk/");d.getElementById("main").replaceChildren();' +
  'function l(r,h,a){var e=d.createElement("link");e.rel=r;e.href=h;if(a)e.as=a;else e.crossOrigin="";d.head.appendChild(e)}' +
  `l("modulepreload","/${pages.file}");var s=p.split("/");` +
  `if(s.length==3&&s[2]&&!/^(${first.join('|')})$/.test(s[1])&&!/^(${second.join('|')})$/.test(s[2])){` +
  'f("/api/product/"+s[2]).then(function(r){' +
  'r.ok&&r.clone().json().then(function(x){x.image&&x.image[0]&&l("preload","/uploads/"+encodeURIComponent(x.image[0]),"image")})},function(){})}' +
  '})(document,location.pathname)';
// A classic (parser-blocking) script right after #root: it still runs before the first paint of <main>.
const bootFile = `assets/boot-${createHash('sha256').update(boot).digest('hex').slice(0, 10)}.js`;
writeFileSync(join(dist, bootFile), boot);
const bootTag = `<script src="/${bootFile}"></script>`;

const indexPath = join(dist, 'index.html');
const index = readFileSync(indexPath, 'utf8');
if (!index.includes('<div id="root"></div>')) throw new Error(`${indexPath} has no empty #root to fill`);
const entry = /<script type="module" crossorigin src=/;
if (!entry.test(index)) throw new Error(`${indexPath} has no entry script`);
const app = index
  .replace('<div id="root"></div>', `<div id="root">${html}</div>${bootTag}`)
  // The first paint needs only the HTML and CSS now: the script may queue behind them.
  .replace(entry, '<script type="module" fetchpriority="low" crossorigin src=');
writeFileSync(indexPath, app);
// The same app under another name, which CloudFront serves with status 404 for a drink page whose drink the
// last publish did not list (the app then says "Drink not found", or shows a drink added since).
writeFileSync(join(dist, 'app-404.html'), app);
// The 404 page: its own prerender and title, kept out of search results, without the boot script (which
// would empty <main> off '/'); the route table's chunk, which holds the page, starts loading at once.
const notFound = renderNotFound();
if (!notFound.html.includes('Page not found')) throw new Error('the prerendered 404 page does not say "Page not found"');
const template = index.replace(entry, '<script type="module" fetchpriority="low" crossorigin src=');
if (!/<title>[^<]*<\/title>/.test(template)) throw new Error(`${indexPath} has no <title>`);
writeFileSync(
  join(dist, '404.html'),
  template
    .replace(/<title>[^<]*<\/title>/, `<title>${notFound.title}</title>\n    <meta name="robots" content="noindex" />\n    <link rel="modulepreload" crossorigin href="/${pages.file}" />`)
    .replace('<div id="root"></div>', `<div id="root">${notFound.html}</div>`),
);

// The server build and the page as Vite wrote it stay for scripts/prerender-pages.mjs, which renders the
// drink, category and content pages with their data once a shop is running, beside their boot script.
writeFileSync(join(ssrDir, 'template.html'), index);
const page = pageBoot();
writeFileSync(join(dist, page.file), page.source);
console.log(`Prerendered the first screen into index.html (${html.length} characters) and the 404 page into 404.html, in ${dist}.`);
