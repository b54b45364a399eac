// The admin area's own frame under /new/uk/ (not the shop's: no banner, shop menu, basket or newsletter
// footer): a top bar with the area's name, who is logged in, a link back to the shop and Log out; a side
// menu of every admin screen (a Menu button opens it on narrow screens); the screen itself in <main>, with
// a document title per screen. The router lets only admins in (app/routes/AdminRoute.tsx).
import { Suspense, useEffect, useState } from 'react';
import { Outlet, useLocation } from 'react-router';
import { ActiveLink } from '../components/ActiveLink';
import { Link } from '../components/Link';
import { useAppDispatch, useAppSelector } from '../app/hooks';
import { paths } from '../app/paths';
import { ErrorBoundary } from '../components/ErrorBoundary';
import { LoadingView } from '../components/StatusView';
import ui from '../components/ui.module.css';
import { selectShowSubscription, selectUserInfo } from '../state/session/authSlice';
import { LogoutButton } from '../components/LogoutButton';
import { refreshSignedInUser } from '../state/session/login';
import { SITE_NAME } from '../lib/brand';
import { ADMIN_MENU, menuScreenOf, SUBSCRIPTION_SCREENS } from './adminMenu';
import { adminTitle } from './adminTitle';
import styles from './AdminLayout.module.css';

export default function AdminLayout() {
  const dispatch = useAppDispatch();
  const { pathname } = useLocation();
  const user = useAppSelector(selectUserInfo);
  const showSubscription = useAppSelector(selectShowSubscription);
  const [menuOpen, setMenuOpen] = useState(false);
  const menu = ADMIN_MENU.filter((item) => showSubscription || !SUBSCRIPTION_SCREENS.has(item.child));
  // The stored role may be stale (another admin changed it): check it once per visit to the area.
  useEffect(() => {
    void dispatch(refreshSignedInUser());
  }, [dispatch]);
  // A new screen: the menu closes, the page starts at the top, and a menu screen gets its title (a deeper
  // screen, such as an order, sets its own).
  useEffect(() => {
    setMenuOpen(false);
    window.scrollTo(0, 0);
    const screen = menuScreenOf(pathname);
    if (screen) document.title = adminTitle(screen);
  }, [pathname]);

  return (
    <div className={styles.frame}>
      <a className={styles.skip} href="#admin-main">
        Skip to content
      </a>
      <header className={styles.top}>
        <div className={styles.brand}>
          <h1 className={styles.title}>
            <Link to={paths.admin.to()}>Shop admin</Link>
          </h1>
          <span className={styles.shop}>{SITE_NAME}</span>
        </div>
        <button
          type="button"
          className={`${ui.secondary} ${styles.onDark} ${styles.menuButton}`}
          aria-expanded={menuOpen}
          aria-controls="admin-menu"
          onClick={() => setMenuOpen((open) => !open)}
        >
          Menu
        </button>
        <div className={styles.who}>
          <span>
            Logged in as <strong>{user?.email}</strong>
          </span>
          <Link className={styles.back} to={paths.home.to()}>
            Back to the shop
          </Link>
          <LogoutButton className={`${ui.secondary} ${styles.onDark}`} />
        </div>
      </header>
      <div className={styles.shell}>
        <nav id="admin-menu" className={`${styles.side} ${menuOpen ? styles.open : ''}`} aria-label="Admin">
          <h2 className={styles.sideTitle}>Manage</h2>
          <ul className={styles.links}>
            {menu.map((item) => (
              <li key={item.child}>
                {/* The screen's link stays current on its deeper pages (an order under Orders). */}
                <ActiveLink className={styles.link} to={paths.admin.to(item.child)} end={item.child === ''}>
                  {item.label}
                </ActiveLink>
              </li>
            ))}
          </ul>
        </nav>
        <main id="admin-main" className={styles.main} tabIndex={-1}>
          <ErrorBoundary key={pathname}>
            <Suspense fallback={<LoadingView label="Loading the admin screen" cards={2} />}>
              <Outlet />
            </Suspense>
          </ErrorBoundary>
        </main>
      </div>
    </div>
  );
}
