// The app's route table: the admin area under /new/uk/ in its own frame (app/routes/AdminRoute.tsx), and the
// shop in its Layout, in two parts so the home page's script stays small: this file holds the frame and
// Home (the first page most shoppers see); app/pageRoutes.tsx holds every other route in
// the spec's tables and loads as one small chunk the moment any other path is visited.
import { Suspense } from 'react';
import { Route, Routes } from 'react-router';
import { HomePage } from '../features/home/components/HomePage';
import { lazyPage } from '../lib/chunks';
import { Layout } from './Layout';
import { paths } from './paths';
import type { AppDispatch } from './store';

const loadPageRoutes = () => import('./pageRoutes');
const PageRoutes = lazyPage(loadPageRoutes);
// The admin area has its own frame, not the shop's Layout (its banner, menu and footer are the shop's).
const AdminRoute = lazyPage(() => import('./routes/AdminRoute'));

/**
 * Starts loading the rest of the route table: at once when the first page is not Home (it is needed now),
 * otherwise when the browser is idle, so the next page is one round trip closer.
 */
export function prefetchPageRoutes(): void {
  const load = () => void loadPageRoutes().catch(() => undefined);
  if (window.location.pathname !== '/') load();
  else (window.requestIdleCallback ?? ((run: () => void) => window.setTimeout(run, 2000)))(load);
}

/**
 * A prerendered page (scripts/prerender-pages.mjs) stays on screen until React's first render can put up the
 * same page: this loads the route table and the page's own chunk and data (pageRoutes.tsx, `preloadPage`)
 * before that render. Never rejects: a failure leaves the page to load as any other would.
 */
export function preloadPrerenderedPage(
  dispatch: AppDispatch,
  location: { pathname: string; search: string },
  found?: (prerendered: boolean) => void,
): Promise<void> {
  return PageRoutes.preload()
    .then(loadPageRoutes)
    .then(({ preloadPage }) => preloadPage(dispatch, location))
    .then(
      (prerendered) => found?.(prerendered),
      () => found?.(false),
    );
}

/**
 * Home. Its hero's words are fixed rather than the site info's: text that changed once the info arrived would
 * move the first screen under the shopper's eyes.
 */
const Home = HomePage;

export function AppRoutes() {
  return (
    <Routes>
      <Route
        path={`${paths.admin.pattern}/*`}
        element={
          <Suspense fallback={null}>
            <AdminRoute />
          </Suspense>
        }
      />
      <Route element={<Layout />}>
        <Route index element={<Home />} />
        <Route path="*" element={<PageRoutes />} />
      </Route>
    </Routes>
  );
}
