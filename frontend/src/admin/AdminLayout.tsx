// The admin wrapper under /new/uk/: a side menu of every admin screen around the current one, and who is
// logged in with a log out. The router lets only admins in (app/pageRoutes.tsx).
import { Suspense, useEffect } from 'react';
import { ActiveLink } from '../components/ActiveLink';
import { Outlet } from 'react-router';
import { useAppDispatch, useAppSelector } from '../app/hooks';
import { paths } from '../app/paths';
import { selectShowSubscription, selectUserInfo } from '../features/auth/authSlice';
import { LogoutButton } from '../features/auth/components/LogoutButton';
import { refreshSignedInUser } from '../features/auth/login';
import { PageHeading } from '../components/PageHeading';
import { LoadingView } from '../components/StatusView';
import ui from '../components/ui.module.css';
import styles from './AdminLayout.module.css';

export const ADMIN_MENU: ReadonlyArray<{ child: string; label: string }> = [
  { child: '', label: 'Dashboard' },
  { child: 'result', label: 'Sales results' },
  { child: 'order', label: 'Orders' },
  { child: 'products', label: 'Products' },
  { child: 'show', label: 'Images' },
  { child: 'discount', label: 'Discount codes' },
  { child: 'reviews', label: 'Reviews' },
  { child: 'subscription', label: 'Subscriptions' },
  { child: 'mailer', label: 'Mailer' },
  { child: 'about', label: 'About text' },
  { child: 'whoweare', label: 'Who we are' },
  { child: 'siteinfo', label: 'Site info' },
  { child: 'policies', label: 'Policies' },
  { child: 'links', label: 'Link entries' },
  { child: 'categories', label: 'Categories' },
  { child: 'users', label: 'Users' },
  { child: 'profile', label: 'Profile' },
];

/** Screens shown only with the auth state's showsubscription flag. */
const SUBSCRIPTION_SCREENS = new Set(['subscription', 'mailer']);

export default function AdminLayout() {
  const dispatch = useAppDispatch();
  const user = useAppSelector(selectUserInfo);
  const showSubscription = useAppSelector(selectShowSubscription);
  const menu = ADMIN_MENU.filter((item) => showSubscription || !SUBSCRIPTION_SCREENS.has(item.child));
  // The stored role may be stale (another admin changed it): check it once per visit to the area.
  useEffect(() => {
    void dispatch(refreshSignedInUser());
  }, [dispatch]);
  return (
    <div className={ui.container}>
      <PageHeading
        title="Shop admin"
        lead={
          <span className={styles.who}>
            <span>
              Logged in as <strong>{user?.email}</strong>
            </span>
            <LogoutButton className={ui.secondary} />
          </span>
        }
        crumbs={[{ label: 'Home', to: paths.home.to() }, { label: 'Admin' }]}
      />
      <div className={styles.shell}>
        <nav className={styles.side} aria-label="Admin">
          <h2 className={styles.sideTitle}>Manage</h2>
          <ul className={styles.links}>
            {menu.map((item) => (
              <li key={item.child}>
                <ActiveLink className={styles.link} to={paths.admin.to(item.child)}>
                  {item.label}
                </ActiveLink>
              </li>
            ))}
          </ul>
        </nav>
        <div>
          <Suspense fallback={<LoadingView label="Loading the admin screen" cards={2} />}>
            <Outlet />
          </Suspense>
        </div>
      </div>
    </div>
  );
}
