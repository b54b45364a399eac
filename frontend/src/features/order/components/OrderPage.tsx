// /myorder/{id}: the order as the server holds it (lines, its own totals, status, delivery details).
import { useEffect } from 'react';
import { useLocation, useParams } from 'react-router';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { paths } from '../../../app/paths';
import { PageHeading } from '../../../components/PageHeading';
import { StatusView } from '../../../components/StatusView';
import ui from '../../../components/ui.module.css';
import { formatDate } from '../../../lib/dates';
import { formatMoney } from '../../../lib/format';
import { usePageMeta } from '../../../lib/meta';
import { fetchOrderDetail, orderDetailReloadRequested, selectOrderDetail } from '../orderSlice';
import type { Order } from '../orderTypes';
import styles from './Order.module.css';

export function OrderDetails({ order }: { order: Order }) {
  return (
    <div className={styles.panel}>
      <p>
        Order <strong data-testid="order-id">{order._id}</strong> placed on {formatDate(order.createdAt)}:{' '}
        <span className={styles.status} data-testid="order-status">
          {order.status}
        </span>
      </p>
      <section className={styles.box} aria-labelledby="order-lines">
        <h2 id="order-lines" className={ui.sectionTitle}>
          Your drinks
        </h2>
        <table className={styles.table}>
          <thead>
            <tr>
              <th scope="col">Drink</th>
              <th scope="col">Qty</th>
              <th scope="col" className={styles.money}>
                Price
              </th>
              <th scope="col" className={styles.money}>
                Line total
              </th>
            </tr>
          </thead>
          <tbody>
            {order.product.map((line) => (
              <tr key={line.product} data-testid="order-line">
                <td>
                  {line.name} <span>({line.quantity})</span>
                </td>
                <td>{line.qty}</td>
                <td className={styles.money}>{formatMoney(line.price)}</td>
                <td className={styles.money}>{formatMoney((Math.round(line.price * 100) * line.qty) / 100)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <dl className={styles.totals}>
          <dt>Subtotal</dt>
          <dd data-testid="order-subtotal">{formatMoney(order.subtotal)}</dd>
          {order.discount > 0 && (
            <>
              <dt>
                Discount{order.code ? ` (${order.code}, ${order.codeRate}%)` : ''}
              </dt>
              <dd data-testid="order-discount">−{formatMoney(order.discount)}</dd>
            </>
          )}
          <dt>Shipping</dt>
          <dd data-testid="order-shipping">{order.shipping === 0 ? 'Free' : formatMoney(order.shipping)}</dd>
          <dt className={styles.grand}>Total</dt>
          <dd className={styles.grand} data-testid="order-total">
            {formatMoney(order.total)}
          </dd>
        </dl>
      </section>
      <section className={styles.box} aria-labelledby="order-delivery">
        <h2 id="order-delivery" className={ui.sectionTitle}>
          Delivery
        </h2>
        <p>{order.fullname}</p>
        <p>{order.address}</p>
        <p>
          {order.phone} · {order.email}
        </p>
        {order.message && <p>{order.message}</p>}
        <p>
          Paid by {order.card.brand} ending {order.card.last4}
        </p>
      </section>
    </div>
  );
}

export default function OrderPage() {
  const { id = '' } = useParams();
  usePageMeta('Your order', `The details and status of order ${id}.`);
  const dispatch = useAppDispatch();
  const detail = useAppSelector(selectOrderDetail);
  /** The checkout sends the shopper here with `{placed: true}`: thank them then, not on later visits. */
  const placed = (useLocation().state as { placed?: boolean } | null)?.placed === true;

  useEffect(() => {
    void dispatch(fetchOrderDetail(id));
  }, [dispatch, id]);
  useEffect(() => {
    if (detail.reload) void dispatch(fetchOrderDetail(id));
  }, [dispatch, id, detail.reload]);

  const order = detail.id === id ? detail.order : null;
  return (
    <div className={ui.container}>
      <PageHeading
        title="Your order"
        lead={order && placed ? 'Thank you: your order is confirmed and a confirmation e-mail is on its way.' : undefined}
        crumbs={[{ label: 'Home', to: paths.home.to() }, { label: 'Your order' }]}
      />
      <StatusView
        status={detail.status}
        error={detail.error}
        onRetry={() => dispatch(orderDetailReloadRequested())}
        isEmpty={!order}
        loadingLabel="Loading your order"
        errorTitle="We could not load this order"
        empty={<p>No order here.</p>}
      >
        {order && <OrderDetails order={order} />}
      </StatusView>
    </div>
  );
}
