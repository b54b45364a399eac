// On the confirmation of a guest's order: make an account with the address the order was placed with (a
// code by e-mail, no password), so this order and the next show under "Your orders"; "Save these details"
// (ticked) also keeps the order's name, phone and address on the new profile. The login page sends the
// shopper on to /account/order?save={order id}, where DetailsOffer.tsx saves
// them once the order is confirmed theirs.
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { paths } from '../../../app/paths';
import ui from '../../../components/ui.module.css';
import type { LoginState } from '../../../state/session/redirect';
import type { Order } from '../../../lib/orderTypes';
import styles from './Order.module.css';

export function CreateAccount({ order }: { order: Order }) {
  const navigate = useNavigate();
  const [saveDetails, setSaveDetails] = useState(true);
  const from = saveDetails ? `${paths.account.orders.to()}?save=${encodeURIComponent(order._id)}` : paths.account.orders.to();
  return (
    <section className={styles.box} aria-labelledby="create-account-title" data-testid="create-account">
      <h2 id="create-account-title" className={ui.sectionTitle}>
        Keep track of your orders
      </h2>
      <p>
        Create an account with the e-mail address you gave for this order: we e-mail you a code, no password needed. This order and your
        next ones then show under Your orders.
      </p>
      <p>
        <label>
          <input type="checkbox" checked={saveDetails} onChange={(event) => setSaveDetails(event.target.checked)} /> Save these details
          (name, phone and delivery address) to my account
        </label>
      </p>
      <p>
        <button
          type="button"
          className={ui.primary}
          onClick={() => void navigate(paths.login.to(), { state: { from } satisfies LoginState })}
        >
          Create an account
        </button>
      </p>
    </section>
  );
}
