// What happened to an order's money, on the admin's order view: its holds (a dispute or a fraud warning:
// not to be shipped; a warning can be released once checked), a refund Stripe has not answered yet, and
// every refund with who made it, why, and its credit note.
import { useId, useState, type FormEvent } from 'react';
import { useAppDispatch } from '../../app/hooks';
import { paths } from '../../app/paths';
import { Link } from '../../components/Link';
import ui from '../../components/ui.module.css';
import { formatDate } from '../../lib/dates';
import { formatMoney } from '../../lib/format';
import { refundFor, type Hold, type Order } from '../../lib/orderTypes';
import styles from '../adminScreens.module.css';
import { TableScroll } from '../table/TableScroll';
import { releaseHold } from './adminOrdersSlice';

const HOLD_KINDS: Record<Hold['kind'], string> = { dispute: 'Dispute', 'fraud-warning': 'Fraud warning' };

/** "Dispute (fraudulent) opened 3 Dec 2026". */
export const holdLabel = (hold: Hold): string => `${HOLD_KINDS[hold.kind]} (${hold.reason}) opened ${formatDate(hold.openedAt)}`;

function ReleaseForm({ order, busy, onReleased }: { order: Order; busy: boolean; onReleased: () => void }) {
  const dispatch = useAppDispatch();
  const id = useId();
  const [note, setNote] = useState('');
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void dispatch(releaseHold(order, note.trim())).then((done) => {
      if (done) onReleased();
    });
  };
  return (
    <form className={styles.form} onSubmit={onSubmit} data-testid="release-hold">
      <div className={styles.field}>
        <label htmlFor={`${id}-note`}>What you checked (kept with the hold)</label>
        <input id={`${id}-note`} className={styles.select} required maxLength={200} value={note} onChange={(e) => setNote(e.target.value)} />
      </div>
      <button type="submit" className={`${ui.secondary} ${styles.small}`} disabled={busy || note.trim() === ''}>
        Release the hold
      </button>
    </form>
  );
}

/** The order's holds: the open one first, with what to do; closed ones with their outcome. */
export function HoldNotice({ order, busy, onChanged }: { order: Order; busy: boolean; onChanged: () => void }) {
  const holds = order.holds ?? [];
  if (holds.length === 0) return null;
  const open = holds.filter((h) => h.outcome == null);
  return (
    <section aria-labelledby="order-holds-title" data-testid="order-holds">
      <h3 id="order-holds-title">Holds</h3>
      {open.length > 0 && (
        <div className={styles.alert} role="alert" data-testid="order-on-hold">
          <p>On hold: do not ship this order. {open.map(holdLabel).join('; ')}.</p>
          <p>
            {open.some((h) => h.kind === 'dispute')
              ? "Answer the dispute in Stripe's Dashboard; the hold closes when the bank decides."
              : 'Check the order with the customer, then release it, or refund it.'}
          </p>
        </div>
      )}
      {open.length > 0 && open.every((h) => h.kind === 'fraud-warning') && <ReleaseForm order={order} busy={busy} onReleased={onChanged} />}
      <ul>
        {holds
          .filter((h) => h.outcome != null)
          .map((hold) => (
            <li key={hold._id}>
              {holdLabel(hold)}: closed {hold.closedAt ? formatDate(hold.closedAt) : ''}, {hold.outcome}
            </li>
          ))}
      </ul>
    </section>
  );
}

const BY: Record<string, string> = { stripe: "Stripe's Dashboard", shop: 'the shop (a late payment)' };

/** Every refund of the order, as the admin reads them. */
export function RefundsTable({ order }: { order: Order }) {
  return (
    <section aria-labelledby="order-refunds-title">
      <h3 id="order-refunds-title">Refunds</h3>
      {order.refunding != null && (
        <p className={styles.alert} role="status" data-testid="refund-under-way">
          A refund of {formatMoney(order.refunding)} was asked of Stripe and not answered yet: the shop asks Stripe again within a few minutes
          and records it if it was made.
        </p>
      )}
      {order.refunds.length === 0 ? (
        <p>No refunds.</p>
      ) : (
        <TableScroll label="Refunds">
          <table className={styles.table} data-testid="admin-order-refunds">
            <thead>
              <tr>
                <th scope="col">Date</th>
                <th scope="col" className={styles.num}>
                  Amount
                </th>
                <th scope="col">For</th>
                <th scope="col">Status</th>
                <th scope="col">Reason</th>
                <th scope="col">By</th>
                <th scope="col">Credit note</th>
              </tr>
            </thead>
            <tbody>
              {order.refunds.map((refund) => (
                <tr key={refund._id} data-testid="admin-order-refund">
                  <td>{formatDate(refund.createdAt)}</td>
                  <td className={styles.num}>{formatMoney(refund.amount)}</td>
                  <td>
                    {refundFor(refund)}
                    {refund.restocked && ' (back on sale)'}
                  </td>
                  <td>{refund.status}</td>
                  <td>{refund.reason}</td>
                  <td>{refund.by ? (BY[refund.by] ?? refund.by) : ''}</td>
                  <td>
                    {refund.creditNote && refund.status !== 'failed' ? (
                      <Link to={paths.receipt.creditNote(order._id, refund._id)}>{refund.creditNote.number}</Link>
                    ) : (
                      '—'
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </section>
  );
}
