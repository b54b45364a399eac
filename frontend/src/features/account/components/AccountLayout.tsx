// The account wrapper: tabs for orders and profile around the child screen.
import { Outlet } from 'react-router';
import { ActiveLink } from '../../../components/ActiveLink';
import { paths } from '../../../app/paths';
import { PageHeading } from '../../../components/PageHeading';
import ui from '../../../components/ui.module.css';
import styles from './AccountLayout.module.css';

export default function AccountLayout() {
  return (
    <div className={ui.container}>
      <PageHeading title="Your account" crumbs={[{ label: 'Home', to: paths.home.to() }, { label: 'Account' }]} />
      <nav aria-label="Account">
        <ul className={styles.tabs}>
          <li>
            <ActiveLink className={styles.tab} to={paths.account.orders.to()}>
              Orders
            </ActiveLink>
          </li>
          <li>
            <ActiveLink className={styles.tab} to={paths.account.profile.to()}>
              Profile
            </ActiveLink>
          </li>
        </ul>
      </nav>
      <Outlet />
    </div>
  );
}
