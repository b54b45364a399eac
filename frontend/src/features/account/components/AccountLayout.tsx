// The account wrapper: who is logged in, a log out, and tabs for orders and profile around the child screen.
import { Outlet } from 'react-router';
import { useAppSelector } from '../../../app/hooks';
import { ActiveLink } from '../../../components/ActiveLink';
import { paths } from '../../../app/paths';
import { PageHeading } from '../../../components/PageHeading';
import ui from '../../../components/ui.module.css';
import { selectUserInfo } from '../../../state/session/authSlice';
import { LogoutButton } from '../../../components/LogoutButton';
import styles from './AccountLayout.module.css';

export default function AccountLayout() {
  const user = useAppSelector(selectUserInfo);
  return (
    <div className={ui.container}>
      <PageHeading
        title="Your account"
        lead={
          <span className={styles.who}>
            <span>
              Logged in as <strong>{user?.email}</strong>
            </span>
            <LogoutButton className={ui.secondary} />
          </span>
        }
        crumbs={[{ label: 'Home', to: paths.home.to() }, { label: 'Account' }]}
      />
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
