// Moving an order on, in the orders table and on the admin's order view: the next status (the server refuses
// a move that is not allowed and says why), with `shipped` the carrier and tracking number. Cancelling a
// paid order refunds what is left of it (its drinks back on sale), so that button says so and asks first. A
// finished order can be archived (and brought back); only a finished order that was never paid can be deleted,
// after a question naming it: the shop keeps paid orders for its accounts, so for those there is no Delete at all.
import { useEffect, useState } from 'react';
import { useAppDispatch } from '../../app/hooks';
import ui from '../../components/ui.module.css';
import { formatMoney, toPence } from '../../lib/format';
import { cancelRefunds, ORDER_STATUSES, orderReference, type Order, type OrderStatus } from '../../lib/orderTypes';
import styles from '../adminScreens.module.css';
import { archiveOrder, canDelete, deleteOrder, isFinished, updateOrderStatus, type Shipping } from './adminOrdersSlice';

interface OrderStatusControlProps {
  order: Order;
  busy: boolean;
  /** After the server moved the order on (the order view then reads it again). */
  onUpdated?: () => void;
  /** After the server deleted the order (the order view then leaves). */
  onDeleted?: () => void;
}

export function OrderStatusControl({ order, busy, onUpdated, onDeleted }: OrderStatusControlProps) {
  const dispatch = useAppDispatch();
  const [status, setStatus] = useState<OrderStatus>(order.status);
  const [carrier, setCarrier] = useState<Shipping['carrier'] | ''>('');
  const [tracking, setTracking] = useState('');
  useEffect(() => setStatus(order.status), [order.status]);
  const reference = orderReference(order);
  const shipping = status === 'shipped' && order.status !== 'shipped';
  const refund = status === 'cancelled' && cancelRefunds(order.status);
  const onUpdate = () => {
    const left = (toPence(order.total) - toPence(order.refunded)) / 100;
    if (refund && !window.confirm(`Cancel this order and refund ${formatMoney(left)} to ${order.fullname}'s card?`)) return;
    const details: Shipping = shipping ? { ...(carrier ? { carrier } : {}), ...(tracking.trim() ? { trackingNumber: tracking.trim() } : {}) } : {};
    void dispatch(updateOrderStatus(order, status, details)).then((done) => {
      if (done) onUpdated?.();
    });
  };
  const onArchive = () =>
    void dispatch(archiveOrder(order, !order.archivedAt)).then((done) => {
      if (done) onUpdated?.();
    });
  const onDelete = async () => {
    if (!window.confirm(`Delete order ${reference} for ${order.fullname}? It was never paid. This cannot be undone.`)) return;
    if ((await dispatch(deleteOrder(order))) && onDeleted) onDeleted();
  };
  // An order the server closed (expired, refunded) keeps its status in the list, though it cannot be chosen.
  const choices = ORDER_STATUSES.includes(order.status) ? ORDER_STATUSES : [order.status, ...ORDER_STATUSES];
  return (
    <div className={styles.actions}>
      <select
        className={styles.select}
        aria-label={`New status of order ${reference} for ${order.fullname}`}
        value={status}
        onChange={(e) => setStatus(e.target.value as OrderStatus)}
      >
        {choices.map((s) => (
          <option key={s} value={s} disabled={!ORDER_STATUSES.includes(s)}>
            {s}
          </option>
        ))}
      </select>
      {shipping && (
        <>
          <select
            className={styles.select}
            aria-label={`Carrier of order ${reference}`}
            value={carrier}
            onChange={(e) => setCarrier(e.target.value as Shipping['carrier'] | '')}
          >
            <option value="">Carrier (optional)</option>
            <option value="royal-mail">Royal Mail</option>
            <option value="dpd">DPD</option>
            <option value="evri">Evri</option>
            <option value="other">Other</option>
          </select>
          <input
            className={styles.select}
            aria-label={`Tracking number of order ${reference}`}
            placeholder="Tracking number (optional)"
            value={tracking}
            maxLength={40}
            onChange={(e) => setTracking(e.target.value)}
          />
        </>
      )}
      <button type="button" className={`${ui.primary} ${styles.small}`} disabled={busy || status === order.status} onClick={onUpdate}>
        {refund ? 'Cancel and refund' : 'Update'}
      </button>
      {isFinished(order.status) && (
        <button
          type="button"
          className={`${ui.secondary} ${styles.small}`}
          aria-label={`${order.archivedAt ? 'Unarchive' : 'Archive'} order ${reference}`}
          disabled={busy}
          onClick={onArchive}
        >
          {order.archivedAt ? 'Unarchive' : 'Archive'}
        </button>
      )}
      {canDelete(order) && (
        <button
          type="button"
          className={`${ui.secondary} ${styles.small}`}
          aria-label={`Delete order ${reference}`}
          disabled={busy}
          onClick={() => void onDelete()}
        >
          Delete
        </button>
      )}
    </div>
  );
}
