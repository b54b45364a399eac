// /new/uk/order: every order, searchable by name, e-mail or id, 20 a page with 'Load more'; change a status
// (the server refuses a transition that is not allowed and says why) or delete with a confirm. The payment
// column says where the money is; cancelling a paid order refunds it, so that button says so and asks first.
import { useEffect, useState, type FormEvent } from 'react';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { paths } from '../../app/paths';
import { Field } from '../../components/Field';
import { StatusView } from '../../components/StatusView';
import ui from '../../components/ui.module.css';
import { formatDate } from '../../lib/dates';
import { formatMoney } from '../../lib/format';
import { FIRST_PAGE } from '../../lib/paging';
import { cancelRefunds, ORDER_STATUSES, orderReference, paymentState, type Order, type OrderStatus } from '../../features/order/orderTypes';
import styles from '../adminScreens.module.css';
import {
  adminOrdersCleared,
  adminOrdersReloadRequested,
  deleteOrder,
  fetchAdminOrders,
  selectAdminOrders,
  updateOrderStatus,
  type Shipping,
} from '../orders/adminOrdersSlice';
import { Link } from '../../components/Link';

function OrderRow({ order, busy }: { order: Order; busy: boolean }) {
  const dispatch = useAppDispatch();
  const [status, setStatus] = useState<OrderStatus>(order.status);
  const [carrier, setCarrier] = useState<Shipping['carrier'] | ''>('');
  const [tracking, setTracking] = useState('');
  useEffect(() => setStatus(order.status), [order.status]);
  const shipping = status === 'shipped' && order.status !== 'shipped';
  const label = `status of order ${orderReference(order)} for ${order.fullname}`;
  const refund = status === 'cancelled' && cancelRefunds(order.status);
  const onUpdate = () => {
    if (refund && !window.confirm(`Cancel this order and refund ${formatMoney(order.total)} to ${order.fullname}'s card?`)) return;
    const details: Shipping = shipping ? { ...(carrier ? { carrier } : {}), ...(tracking.trim() ? { trackingNumber: tracking.trim() } : {}) } : {};
    void dispatch(updateOrderStatus(order._id, status, details));
  };
  const payment = paymentState(order.status);
  // An order the server closed (expired, refunded) keeps its status in the list, though it cannot be chosen.
  const choices = ORDER_STATUSES.includes(order.status) ? ORDER_STATUSES : [order.status, ...ORDER_STATUSES];
  return (
    <tr data-testid="admin-order">
      <td>
        <Link to={paths.order.to(order._id)}>{orderReference(order)}</Link>
        <br />
        {formatDate(order.createdAt)}
      </td>
      <td>
        {order.fullname}
        <br />
        {order.email}
      </td>
      <td className={styles.num}>{order.product.reduce((n, line) => n + line.qty, 0)}</td>
      <td className={styles.num}>
        {formatMoney(order.total)}
        {order.vat != null && (
          <>
            <br />
            <small>VAT included: {formatMoney(order.vat)}</small>
          </>
        )}
      </td>
      <td data-testid="admin-order-status">{order.status}</td>
      <td data-testid="admin-order-payment" data-state={payment}>
        {payment}
        {payment === 'refunded' && order.refundId && (
          <>
            <br />
            <small>{order.refundId}</small>
          </>
        )}
      </td>
      <td>
        <div className={styles.actions}>
          <select className={styles.select} aria-label={`New ${label}`} value={status} onChange={(e) => setStatus(e.target.value as OrderStatus)}>
            {choices.map((s) => (
              <option key={s} value={s} disabled={!ORDER_STATUSES.includes(s)}>
                {s}
              </option>
            ))}
          </select>
          {shipping && (
            <>
              <select className={styles.select} aria-label={`Carrier of order ${orderReference(order)}`} value={carrier} onChange={(e) => setCarrier(e.target.value as Shipping['carrier'] | '')}>
                <option value="">Carrier (optional)</option>
                <option value="royal-mail">Royal Mail</option>
                <option value="dpd">DPD</option>
                <option value="evri">Evri</option>
                <option value="other">Other</option>
              </select>
              <input
                className={styles.select}
                aria-label={`Tracking number of order ${orderReference(order)}`}
                placeholder="Tracking number (optional)"
                value={tracking}
                maxLength={40}
                onChange={(e) => setTracking(e.target.value)}
              />
            </>
          )}
          <button
            type="button"
            className={`${ui.primary} ${styles.small}`}
            disabled={busy || status === order.status}
            onClick={onUpdate}
          >
            {refund ? 'Cancel and refund' : 'Update'}
          </button>
          <button
            type="button"
            className={`${ui.secondary} ${styles.small}`}
            disabled={busy}
            onClick={() => {
              if (window.confirm('Delete this order?')) void dispatch(deleteOrder(order._id));
            }}
          >
            Delete
          </button>
        </div>
      </td>
    </tr>
  );
}

export default function OrderScreen() {
  const dispatch = useAppDispatch();
  const list = useAppSelector(selectAdminOrders);
  const [text, setText] = useState(list.search);

  useEffect(() => {
    void dispatch(fetchAdminOrders({ page: FIRST_PAGE, search: list.search }));
    // Only on opening; later fetches come from the search, 'load more' and the reload flag.
  }, [dispatch]);
  useEffect(() => {
    if (list.reload) void dispatch(fetchAdminOrders({ page: FIRST_PAGE, search: list.search }));
  }, [dispatch, list.reload, list.search]);

  const onSearch = (event: FormEvent) => {
    event.preventDefault();
    void dispatch(fetchAdminOrders({ page: FIRST_PAGE, search: text.trim() }));
  };
  const onClear = () => {
    setText('');
    dispatch(adminOrdersCleared());
  };

  return (
    <section className={styles.screen} aria-labelledby="orders-title">
      <h2 id="orders-title" className={ui.sectionTitle}>
        Orders
      </h2>
      <form className={styles.toolbar} role="search" onSubmit={onSearch}>
        <Field id="order-search" label="Search by name, e-mail or order id" value={text} onChange={setText} />
        <button type="submit" className={ui.primary}>
          Search
        </button>
        <button type="button" className={ui.secondary} onClick={onClear}>
          Clear
        </button>
      </form>
      {list.actionError && (
        <p className={styles.alert} role="alert" data-testid="order-action-error">
          {list.actionError}
        </p>
      )}
      <StatusView
        status={list.status}
        error={list.error}
        onRetry={() => dispatch(adminOrdersReloadRequested())}
        isEmpty={list.products.length === 0}
        loadingLabel="Loading orders"
        errorTitle="We could not load the orders"
        empty={<p>No orders{list.search ? ` match “${list.search}”` : ''}.</p>}
      >
        <div className={styles.tableWrap}>
          <table className={styles.table}>
            <thead>
              <tr>
                <th scope="col">Order</th>
                <th scope="col">Customer</th>
                <th scope="col" className={styles.num}>
                  Items
                </th>
                <th scope="col" className={styles.num}>
                  Total
                </th>
                <th scope="col">Status</th>
                <th scope="col">Payment</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {list.products.map((order) => (
                <OrderRow key={order._id} order={order} busy={list.busy} />
              ))}
            </tbody>
          </table>
        </div>
        {list.nextPage !== null && (
          <button
            type="button"
            className={ui.secondary}
            disabled={list.status === 'loading'}
            onClick={() => list.nextPage !== null && void dispatch(fetchAdminOrders({ page: list.nextPage, search: list.search }))}
          >
            Load more
          </button>
        )}
      </StatusView>
    </section>
  );
}
