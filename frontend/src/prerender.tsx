// Build-time only (never shipped to the browser): renders the app's first screen at '/' to static HTML, which
// scripts/prerender.mjs puts into dist/index.html. The shopper then sees the header and the home page's hero
// as soon as the HTML and CSS arrive, instead of after the script has loaded and run; React replaces the
// markup with the same markup when it starts.
import { renderToString } from 'react-dom/server';
import { Provider } from 'react-redux';
import { Route, Routes, StaticRouter } from 'react-router';
import { Layout } from './app/Layout';
import { paths } from './app/paths';
import { AppRoutes, preloadPrerenderedPage } from './app/router';
import { NOT_FOUND_TITLE, NotFoundPage } from './app/routes/NotFoundPage';
import { makeStore } from './app/store';
import { pageTitle } from './lib/meta';
import { prerendering, type PageHead } from './lib/prerendering';

/**
 * A page with its data, for scripts/prerender-pages.mjs (prices, stock and ratings left out: lib/prerendering.ts): the store is filled through the app's own calls
 * (`fetch` reaches the running shop), the page's chunk is loaded, and the whole app renders at `url` as the
 * browser's first render will over it (main.tsx waits for the same chunk and calls). Null for a path the
 * build does not prerender. The page's title and description come back for the document's head.
 */
export async function renderPage(url: string, fetch: typeof globalThis.fetch): Promise<{ html: string; meta: PageHead | null } | null> {
  const store = makeStore(undefined, { fetch, reload: () => undefined });
  const location = new URL(url, 'http://prerender.invalid');
  let prerendered = false;
  await preloadPrerenderedPage(store.dispatch, location, (found) => (prerendered = found));
  if (!prerendered) return null;
  const { result, head } = prerendering(() =>
    renderToString(
      <Provider store={store}>
        <StaticRouter location={url}>
          <AppRoutes />
        </StaticRouter>
      </Provider>,
    ),
  );
  return { html: result, meta: head };
}

export function render(url: string): string {
  return renderToString(
    <Provider store={makeStore()}>
      <StaticRouter location={url}>
        <AppRoutes />
      </StaticRouter>
    </Provider>,
  );
}

/**
 * The 404 page in the frame, for dist/404.html (what the gateway and CloudFront send for unknown paths). The
 * page itself is in the lazily loaded route table, which a static render cannot wait for: it is rendered
 * here directly, the same markup the app shows.
 */
export function renderNotFound(): { title: string; html: string } {
  const html = renderToString(
    <Provider store={makeStore()}>
      <StaticRouter location="/404">
        <Routes>
          <Route element={<Layout />}>
            <Route path="*" element={<NotFoundPage />} />
          </Route>
        </Routes>
      </StaticRouter>
    </Provider>,
  );
  return { title: pageTitle(NOT_FOUND_TITLE), html };
}

/**
 * What the boot script needs to recognise a product page (/{product}/{id}) from the path alone: the first
 * segments that belong to other routes, and the second segments that are not product ids.
 */
export function productRouteExclusions(): { first: string[]; second: string[] } {
  const patterns = [
    paths.shop.pattern,
    paths.about.pattern,
    paths.contact.pattern,
    paths.checkout.pattern,
    paths.order.pattern,
    paths.account.pattern,
    paths.admin.pattern,
    paths.login.pattern,
    paths.reviews.pattern,
    paths.search.pattern,
    paths.policy.pattern,
  ];
  const first = new Set<string>();
  const second = new Set<string>();
  for (const pattern of patterns) {
    const [, one = '', two = ''] = pattern.split('/');
    if (!one.startsWith(':')) first.add(one);
    else if (two && !two.startsWith(':')) second.add(two);
  }
  return { first: [...first], second: [...second] };
}
