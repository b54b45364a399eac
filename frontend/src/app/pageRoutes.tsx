// Every route in the spec's tables except Home and the admin area (see router.tsx): public pages, the
// account wrapper with its children, and the page for unknown paths. Each screen is its own lazily loaded chunk.
import type { ReactNode } from 'react';
import { matchRoutes, Route, Routes, useParams } from 'react-router';
import { selectIsLoggedIn } from '../state/session/authSlice';
import { lazyPage } from '../lib/chunks';
import { FIRST_PAGE } from '../lib/paging';
import { useAppSelector } from './hooks';
import { paths } from './paths';
import type { AppDispatch } from './store';
import { Redirect, ToLogin } from './routes/redirects';
import { NotFoundPage } from './routes/NotFoundPage';
import { isConfirmKind } from '../features/confirm/confirm';

const ShopPage = lazyPage(() => import('../features/shop/components/ShopPage'));
const SearchPage = lazyPage(() => import('../features/search/components/SearchPage'));
const AboutPage = lazyPage(() => import('../features/content/components/AboutPage'));
const ContactPage = lazyPage(() => import('../features/content/components/ContactPage'));
const PolicyPage = lazyPage(() => import('../features/content/components/PolicyPage'));
const LoginPage = lazyPage(() => import('../features/auth/components/LoginPage'));
const ReviewsPage = lazyPage(() => import('../features/reviews/components/ReviewsPage'));
const CheckoutPage = lazyPage(() => import('../features/checkout/components/CheckoutPage'));
const OrderPage = lazyPage(() => import('../features/order/components/OrderPage'));
const ReceiptPage = lazyPage(() => import('../features/order/components/ReceiptPage'));
const AccountLayout = lazyPage(() => import('../features/account/components/AccountLayout'));
const AccountOrdersPage = lazyPage(() => import('../features/order/components/AccountOrdersPage'));
const AccountProfilePage = lazyPage(() => import('../features/account/components/AccountProfilePage'));
const AccountDeletedPage = lazyPage(() => import('../features/account/components/AccountDeletedPage'));

const ConfirmPage = lazyPage(() => import('../features/confirm/components/ConfirmPage'));

const ProductRoute = lazyPage(() => import('./routes/ProductRoute'));

type Location = { pathname: string; search: string };

/**
 * The pages the build prerenders with their data (scripts/prerender-pages.mjs): for each, its chunk and the
 * calls its first render needs. The same list serves the build's render in Node and the browser's first
 * render over the prerendered page, so both render the same page from the same data.
 */
const PRERENDERED: {
  pattern: string;
  /** A slug suffix the router cannot match (see WhenSlugEndsWith). */
  suffix?: string;
  load: (dispatch: AppDispatch, params: Record<string, string | undefined>, query: URLSearchParams) => Promise<unknown>;
}[] = [
  {
    pattern: paths.shop.pattern,
    load: async (dispatch, _params, query) => {
      const [, shop, { choiceFromParams }] = await Promise.all([
        ShopPage.preload(),
        import('../features/shop/shopSlice'),
        import('../features/shop/browse'),
      ]);
      await Promise.all([
        dispatch(shop.fetchShopCategories()),
        dispatch(shop.fetchDrinksPage({ page: FIRST_PAGE, ...choiceFromParams(query) })),
      ]);
    },
  },
  {
    pattern: paths.policy.pattern,
    load: async (dispatch, { id = '' }, query) => {
      const [, { fetchPolicy, fetchPolicyVersion }] = await Promise.all([PolicyPage.preload(), import('../features/content/contentSlice')]);
      // An order's link to the words it was sold under (?version=3): that version, not today's.
      const version = Number(query.get('version'));
      await (Number.isInteger(version) && version > 0 ? dispatch(fetchPolicyVersion({ id, version })) : dispatch(fetchPolicy(id)));
    },
  },
  {
    pattern: paths.about.pattern,
    suffix: '-about-us',
    load: async (dispatch) => Promise.all([AboutPage.preload(), siteInfo(dispatch, 'info', 'about')]),
  },
  {
    pattern: paths.contact.pattern,
    suffix: '-contact',
    load: async (dispatch) => {
      const [, { fetchContact }] = await Promise.all([
        ContactPage.preload(),
        import('../features/content/contentSlice'),
        siteInfo(dispatch, 'info'),
      ]);
      await dispatch(fetchContact());
    },
  },
  {
    pattern: paths.product.pattern,
    load: async (dispatch, { id = '' }) => {
      const [, { fetchProduct }] = await Promise.all([
        ProductRoute.preload(),
        import('../features/product/productSlice'),
        // The food information names the producer, from the site info.
        siteInfo(dispatch, 'info'),
      ]);
      await dispatch(fetchProduct(id));
    },
  },
];

async function siteInfo(dispatch: AppDispatch, ...parts: ('info' | 'about')[]): Promise<void> {
  const { fetchSitePart } = await import('../state/site/siteSlice');
  await Promise.all(parts.map((part) => dispatch(fetchSitePart(part))));
}

/**
 * Loads what a prerendered page's first render needs: its chunk and its data, into the store. False for a
 * path the build does not prerender (nothing is loaded).
 */
export async function preloadPage(dispatch: AppDispatch, { pathname, search }: Location): Promise<boolean> {
  // The router's own ranking decides which route the path is (/drinks/login is the login page, not a drink).
  const [match] = matchRoutes(ROUTE_PATTERNS.map((path) => ({ path })), pathname) ?? [];
  const page = PRERENDERED.find((candidate) => candidate.pattern === match?.route.path);
  if (!match || !page) return false;
  if (page.suffix && !(match.params.slug ?? '').endsWith(page.suffix)) return false;
  await page.load(dispatch, match.params, new URLSearchParams(search));
  return true;
}

/** The account wrapper is reached when logged in; otherwise it points to the login page. */
function RequireLogin({ children }: { children: ReactNode }) {
  const isLoggedIn = useAppSelector(selectIsLoggedIn);
  return isLoggedIn ? children : <ToLogin />;
}

/**
 * The spec's /about/{product}-about-us and /contact/{product}-contact/: react-router matches whole segments
 * only, so the segment's suffix (and a non-empty {product} before it) is checked here; any other slug is an
 * unknown path (app/knownPaths.json says the same to the gateway and CloudFront).
 */
function WhenSlugEndsWith({ suffix, children }: { suffix: string; children: ReactNode }) {
  const { slug = '' } = useParams();
  return slug.length > suffix.length && slug.endsWith(suffix) ? children : <NotFoundPage />;
}

/** /confirm/{kind}: the kinds of confirmation links e-mails carry; any other is an unknown path. */
function WhenConfirmKind({ children }: { children: ReactNode }) {
  const { kind } = useParams();
  return isConfirmKind(kind) ? children : <NotFoundPage />;
}

/**
 * The routes without children, as a table: PageRoutes routes them, and preloadPage matches a path against
 * the same patterns with the router's own ranking.
 */
const PAGES: { path: string; element: ReactNode }[] = [
  // Before the reviews page: /confirm/review matches both, equally ranked, and the first defined wins.
  {
    path: paths.confirm.pattern,
    element: (
      <WhenConfirmKind>
        <ConfirmPage />
      </WhenConfirmKind>
    ),
  },
  { path: paths.shop.pattern, element: <ShopPage /> },
  { path: paths.search.pattern, element: <SearchPage /> },
  { path: paths.login.pattern, element: <LoginPage /> },
  { path: paths.reviews.pattern, element: <ReviewsPage /> },
  { path: paths.policy.pattern, element: <PolicyPage /> },
  { path: paths.product.pattern, element: <ProductRoute /> },
  {
    path: paths.about.pattern,
    element: (
      <WhenSlugEndsWith suffix="-about-us">
        <AboutPage />
      </WhenSlugEndsWith>
    ),
  },
  {
    path: paths.contact.pattern,
    element: (
      <WhenSlugEndsWith suffix="-contact">
        <ContactPage />
      </WhenSlugEndsWith>
    ),
  },
  { path: paths.checkout.pattern, element: <CheckoutPage /> },
  { path: paths.order.pattern, element: <OrderPage /> },
  { path: paths.receipt.pattern, element: <ReceiptPage /> },
  { path: paths.accountDeleted.pattern, element: <AccountDeletedPage /> },
];

/** Every pattern PageRoutes routes, for preloadPage's match. */
const ROUTE_PATTERNS = [...PAGES.map(({ path }) => path), `${paths.account.pattern}/*`];

export default function PageRoutes() {
  return (
    <Routes>
      {PAGES.map(({ path, element }) => (
        <Route key={path} path={path} element={element} />
      ))}
      <Route
        path={paths.account.pattern}
        element={
          <RequireLogin>
            <AccountLayout />
          </RequireLogin>
        }
      >
        <Route index element={<Redirect to={paths.account.orders.to()} />} />
        <Route path={paths.account.orders.pattern} element={<AccountOrdersPage />} />
        <Route path={paths.account.profile.pattern} element={<AccountProfilePage />} />
      </Route>
      {/* The spec has unknown paths render Home; the shop has a real 404 page instead (shoppers and search engines are told). */}
      <Route path={paths.notFound.pattern} element={<NotFoundPage />} />
    </Routes>
  );
}
