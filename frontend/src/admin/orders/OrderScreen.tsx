// /new/uk/order: every order in one table (admin/table): sort by any column, filter by text (number, id,
// name, e-mail), status and the day it was placed, 20 a page, and a CSV of the filtered orders. A row's
// number opens the admin's order view (/new/uk/order/{id}); its status moves on in the row too (the server
// refuses a move that is not allowed and says why). A finished order can be archived: it leaves this list
// (unless "Show archived orders" is ticked) but a search finds it and the CSV keeps it; only an unpaid
// finished order can be deleted. What each action did is said above the table, where the focus goes. The
// payment column says "partly refunded £x" and marks an order on hold (a dispute or a fraud warning: not to be
// shipped).
import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { paths } from '../../app/paths';
import { StatusView } from '../../components/StatusView';
import ui from '../../components/ui.module.css';
import { formatDate } from '../../lib/dates';
import { formatMoney } from '../../lib/format';
import { isPartlyRefunded, orderReference, paymentLabel, paymentState, type Order, type OrderStatus } from '../../lib/orderTypes';
import styles from '../adminScreens.module.css';
import { Link } from '../../components/Link';
import { adminOrdersReloadRequested, fetchAdminOrdersPage, orderNoticeCleared, selectAdminOrders } from './adminOrdersSlice';
import { WriteOutcome } from '../WriteOutcome';
import { OrderStatusControl } from './OrderStatusControl';
import { AdminTable, type Column } from '../table/AdminTable';
import type { CsvColumn, TableModel } from '../table/tableQuery';
import { useWholeList } from '../table/wholeList';

/** Every status an order can have, for the filter (expired and refunded are the server's own moves). */
const STATUSES: readonly OrderStatus[] = ['pending', 'paid', 'shipped', 'delivered', 'cancelled', 'expired', 'refunded'];

const items = (order: Order) => order.product.reduce((n, line) => n + line.qty, 0);

export const orderModel: TableModel<Order> = {
  sortBy: {
    order: (o) => o.number ?? o._id,
    date: (o) => o.createdAt,
    customer: (o) => o.fullname,
    items,
    total: (o) => o.total,
    status: (o) => o.status,
    payment: (o) => (o.onHold ? `on hold ${paymentLabel(o)}` : paymentLabel(o)),
  },
  text: (o) => [o.number, o.number?.replace(/^\D+/, ''), o._id, o.fullname, o.email],
  status: (o) => o.status,
  date: (o) => o.createdAt,
  archived: (o) => Boolean(o.archivedAt),
};

/** The accounts' columns: money as plain pounds so a spreadsheet adds them up. */
export const orderCsv: readonly CsvColumn<Order>[] = [
  { label: 'Number', value: (o) => o.number ?? '' },
  { label: 'Order id', value: (o) => o._id },
  { label: 'Date', value: (o) => o.createdAt },
  { label: 'Customer', value: (o) => o.fullname },
  { label: 'E-mail', value: (o) => o.email ?? '' },
  { label: 'Items', value: items },
  { label: 'Subtotal', value: (o) => o.subtotal },
  { label: 'Discount', value: (o) => o.discount },
  { label: 'Delivery', value: (o) => o.shipping },
  { label: 'Total', value: (o) => o.total },
  { label: 'VAT', value: (o) => o.vat },
  { label: 'VAT rate %', value: (o) => o.vatRate },
  { label: 'Refunded', value: (o) => o.refunded },
  { label: 'Status', value: (o) => o.status },
  { label: 'Payment', value: (o) => paymentState(o.status) },
  { label: 'Archived', value: (o) => o.archivedAt ?? '' },
  { label: 'On hold', value: (o) => (o.onHold ? 'yes' : '') },
];

function orderColumns(busy: boolean): Column<Order>[] {
  return [
    {
      key: 'order',
      label: 'Order',
      rowHeader: true,
      cell: (o) => (
        <Link className={styles.nowrap} to={paths.admin.to(`order/${encodeURIComponent(o._id)}`)}>
          {orderReference(o)}
        </Link>
      ),
    },
    { key: 'date', label: 'Placed', cell: (o) => formatDate(o.createdAt) },
    {
      key: 'customer',
      label: 'Customer',
      cell: (o) => (
        <>
          {o.fullname}
          <br />
          {o.email}
        </>
      ),
    },
    { key: 'items', label: 'Items', num: true, cell: items },
    {
      key: 'total',
      label: 'Total',
      num: true,
      cell: (o) => (
        <span data-testid="admin-order-total">
          {formatMoney(o.total)}
          {o.vat != null && (
            <>
              <br />
              <small>VAT included: {formatMoney(o.vat)}</small>
            </>
          )}
        </span>
      ),
    },
    {
      key: 'status',
      label: 'Status',
      cell: (o) => (
        <>
          <span data-testid="admin-order-status">{o.status}</span>
          {o.archivedAt && (
            <>
              <br />
              <small data-testid="admin-order-archived">archived</small>
            </>
          )}
          {/* An age-restricted drink: the carrier must check the buyer's ID at the door. */}
          {o.ageCheck && (
            <>
              <br />
              <strong data-testid="admin-order-age-check">Age check on delivery</strong>
            </>
          )}
        </>
      ),
    },
    {
      key: 'payment',
      label: 'Payment',
      cell: (o) => (
        <span data-testid="admin-order-payment" data-state={isPartlyRefunded(o) ? 'partly-refunded' : paymentState(o.status)}>
          {paymentLabel(o)}
          {o.onHold && (
            <>
              <br />
              <strong className={styles.nowrap} data-testid="admin-order-on-hold">
                on hold: do not ship
              </strong>
            </>
          )}
        </span>
      ),
    },
    { key: 'actions', label: 'Actions', cell: (o) => <OrderStatusControl order={o} busy={busy} /> },
  ];
}

export default function OrderScreen() {
  const dispatch = useAppDispatch();
  const list = useAppSelector(selectAdminOrders);
  useWholeList(list, fetchAdminOrdersPage, selectAdminOrders);
  // A notice belongs to the screen where the action was taken; the order view's delete brings its own here.
  const keepNotice = (useLocation().state as { keepNotice?: boolean } | null)?.keepNotice === true;
  useEffect(() => {
    if (!keepNotice) dispatch(orderNoticeCleared());
  }, [dispatch, keepNotice]);

  return (
    <section className={styles.screen} aria-labelledby="orders-title">
      <h2 id="orders-title" className={ui.sectionTitle}>
        Orders
      </h2>
      {list.actionError && (
        <p className={styles.alert} role="alert" data-testid="order-action-error">
          {list.actionError}
        </p>
      )}
      <WriteOutcome notice={list.notice} />
      <StatusView
        status={list.status}
        error={list.error}
        onRetry={() => dispatch(adminOrdersReloadRequested())}
        isEmpty={list.products.length === 0}
        loadingLabel="Loading orders"
        errorTitle="We could not load the orders"
        empty={<p>No orders yet.</p>}
      >
        <AdminTable
          rows={list.products}
          model={orderModel}
          columns={orderColumns(list.busy)}
          rowKey={(o) => o._id}
          filters={{
            text: 'Search by name, e-mail or order id',
            status: { label: 'Status', options: STATUSES.map((s) => ({ value: s, label: s })) },
            date: 'Placed',
            archived: 'Show archived orders',
          }}
          csv={{ fileName: 'orders.csv', columns: orderCsv }}
          noun="orders"
          caption="Orders"
          testId="admin-orders"
          rowTestId="admin-order"
          loadingMore={list.status === 'loading'}
        />
      </StatusView>
    </section>
  );
}
