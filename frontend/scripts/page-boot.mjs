// The boot script of a prerendered drink, category or content page (scripts/prerender-pages.mjs links it; the
// build writes it, scripts/prerender.mjs, so prerendering a running shop's pages never writes into a build).
// Starts the page's calls while the HTML is still parsing, handed to the app's API client through
// window.__prefetched as the home page's boot script does. The app's scripts follow once the page's main
// picture has arrived (at most 3 s later): on a slow connection they would otherwise share it with the
// picture, which is what the shopper is waiting to see, and the page reads without them. A file, not
// inline (the CSP allows no inline script).
import { createHash } from 'node:crypto';

const source =
  '(function(d,s){var k=JSON.parse(s.getAttribute("data-prefetch")||"[]"),p=window.__prefetched={},' +
  'm=JSON.parse(s.getAttribute("data-modules")||"[]"),e=s.getAttribute("data-entry"),done=0;' +
  'k.forEach(function(u){p[u]=fetch(u,{headers:{Accept:"application/json"}})});' +
  'function go(){if(done)return;done=1;m.forEach(function(h){var l=d.createElement("link");l.rel="modulepreload";l.crossOrigin="";l.href=h;d.head.appendChild(l)});' +
  'var x=d.createElement("script");x.type="module";x.crossOrigin="";x.src=e;d.head.appendChild(x)}' +
  'var i=d.querySelector("#main img[fetchpriority=high]");' +
  'if(i&&!i.complete){i.addEventListener("load",go);i.addEventListener("error",go);setTimeout(go,3000)}else go()' +
  '})(document,document.currentScript)';

/** The script and the file it goes in, below the build: named by its content, like Vite's own assets. */
export function pageBoot() {
  return { source, file: `assets/boot-page-${createHash('sha256').update(source).digest('hex').slice(0, 10)}.js` };
}
