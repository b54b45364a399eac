// The admin wrapper under /new/uk/: a side menu of every admin screen around the current one.
import { Suspense } from 'react';
import { ActiveLink } from '../components/ActiveLink';
import { Outlet } from 'react-router';
import { paths } from '../app/paths';
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
  { child: 'profile', label: 'Profile' },
];

export default function AdminLayout() {
  return (
    <div className={ui.container}>
      <PageHeading title="Shop admin" crumbs={[{ label: 'Home', to: paths.home.to() }, { label: 'Admin' }]} />
      <div className={styles.shell}>
        <nav className={styles.side} aria-label="Admin">
          <h2 className={styles.sideTitle}>Manage</h2>
          <ul className={styles.links}>
            {ADMIN_MENU.map((item) => (
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
