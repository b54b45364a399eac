// The frame every page renders in: header, the page, footer, and the basket panel. On entry to any page it
// loads the site contact and about info unless they are already held, closes the menu and the basket on
// navigation, and scrolls to the top of a new page, where focus moves to its heading (RouteAnnouncer).
import { Suspense, useEffect, useRef, useState } from 'react';
import { Outlet, useLocation } from 'react-router';
import { ErrorBoundary } from '../components/ErrorBoundary';
import { WhenNear } from '../components/WhenNear';
import { LoadingView } from '../components/LoadingView';
import ui from '../components/ui.module.css';
import { selectIsLoggedIn } from '../state/session/authSlice';
import { selectCartCount } from '../state/basket/cartSlice';
import { Header } from '../features/header/components/Header';
import { cartPanelClosed, menuClosed, selectCartOpen } from '../state/header/headerSlice';
import { lazyPage } from '../lib/chunks';
import { useAppDispatch, useAppSelector } from './hooks';
import styles from './Layout.module.css';

// The basket panel loads when first wanted (the shopper points at or focuses the basket button), which keeps
// it out of the first page's script.
const loadCartPanel = () => import('../features/cart/components/CartPanel');
const CartPanel = lazyPage(loadCartPanel);
const preloadCartPanel = () => void loadCartPanel().catch(() => undefined);
// Focus and the title's announcement after a route change: nothing to do on the first page, so it loads
// after the first render (never in the prerender), outside the first page's script.
const RouteAnnouncer = lazyPage(() => import('./RouteAnnouncer'));
// The footer is below the fold on every page: it loads as the shopper scrolls towards it.
const Footer = lazyPage(() => import('./Footer'));
// The site info and about texts show only below the fold (footer, home's lower part): their slice loads
// after the first render, outside the first page's script.
const loadSite = () => import('../state/site/siteSlice');
// The delivery terms every invitation to purchase names (drink cards and pages, the FAQ): fetched once per
// visit beside the site info, read where shown without loading their slice (lib/delivery.ts).
const loadDelivery = () => import('../state/site/deliverySlice');

export function Layout() {
  const dispatch = useAppDispatch();
  const { pathname } = useLocation();
  const cartCount = useAppSelector(selectCartCount);
  const isLoggedIn = useAppSelector(selectIsLoggedIn);
  const cartOpen = useAppSelector(selectCartOpen);
  const [started, setStarted] = useState(false);
  const shownPath = useRef(pathname);
  useEffect(() => {
    setStarted(true);
    // The app has taken a prerendered page over (main.tsx): it is no longer the copy.
    document.getElementById('root')?.removeAttribute('data-prerendered');
  }, []);

  useEffect(() => {
    // The thunks' conditions skip the calls when the info is already held. A failed chunk load leaves the
    // parts that show the info to report it (they import the same chunk and fail visibly).
    loadSite()
      .then(({ fetchSitePart }) => Promise.all([dispatch(fetchSitePart('info')), dispatch(fetchSitePart('about'))]))
      .catch(() => undefined);
    loadDelivery()
      .then(({ fetchDeliveryTerms }) => dispatch(fetchDeliveryTerms()))
      .catch(() => undefined);
    dispatch(menuClosed());
    dispatch(cartPanelClosed());
    // A new page starts at its top; the first one stays where the shopper may already have scrolled the
    // prerendered page to.
    if (shownPath.current !== pathname) window.scrollTo(0, 0);
    shownPath.current = pathname;
  }, [dispatch, pathname]);

  return (
    <>
      <a className={styles.skip} href="#main">
        Skip to content
      </a>
      <Header cartCount={cartCount} isLoggedIn={isLoggedIn} onBasketIntent={preloadCartPanel} />
      <main id="main" className={styles.main} tabIndex={-1}>
        <ErrorBoundary key={pathname}>
          <Suspense
            fallback={
              <div className={ui.container} style={{ paddingTop: 'var(--space-7)' }}>
                <LoadingView label="Loading the page" />
              </div>
            }
          >
            <Outlet />
          </Suspense>
        </ErrorBoundary>
      </main>
      <WhenNear>
        <Suspense fallback={null}>
          <Footer />
        </Suspense>
      </WhenNear>
      {started && (
        <Suspense fallback={null}>
          <RouteAnnouncer />
        </Suspense>
      )}
      {cartOpen && (
        <Suspense fallback={null}>
          <CartPanel isLoggedIn={isLoggedIn} onClose={() => dispatch(cartPanelClosed())} />
        </Suspense>
      )}
    </>
  );
}
