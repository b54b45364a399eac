// /account/deleted: the end of "Delete my account". The server has erased the account and the browser has
// forgotten the session; this page says so in its heading (which takes the focus, as after every route
// change) with the server's own words, what was kept and why, and where to go next.
import { useLocation } from 'react-router';
import { paths } from '../../../app/paths';
import { Link } from '../../../components/Link';
import { PageHeading } from '../../../components/PageHeading';
import ui from '../../../components/ui.module.css';
import { usePageMeta } from '../../../lib/meta';

/** What DataRights hands over when it sends the shopper here. */
export interface AccountDeletedState {
  message?: string;
}

export default function AccountDeletedPage() {
  usePageMeta('Your account is deleted', 'Your account and the details it held are deleted.');
  const message = (useLocation().state as AccountDeletedState | null)?.message;
  return (
    <div className={ui.container}>
      <PageHeading title="Your account is deleted" crumbs={[{ label: 'Home', to: paths.home.to() }, { label: 'Account deleted' }]} />
      <div role="status" data-testid="account-deleted">
        {message && <p>{message}</p>}
        <p>
          Your profile, subscriptions and login records are gone, and you are logged out. Your reviews stay without your name, and your
          orders stay without your details, because the law asks us to keep sales records for our accounts.
        </p>
        <p>You can shop as a guest or make a new account with the same e-mail address whenever you like.</p>
      </div>
      <p>
        <Link className={ui.primary} to={paths.home.to()}>
          Back to the home page
        </Link>
      </p>
    </div>
  );
}
