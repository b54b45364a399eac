// /new/uk/order/{id}: one order as the admin works on it: who it goes to, the lines and totals with the VAT,
// the card, carrier and tracking, every status it has had, the same status move and delete as the orders
// table, its holds, its refunds and the refund form. Read whole with the admin's token
// (GET /api/order/Orderdetails/{id}); read again after a move, a refund or a hold's release.
import { useCallback, useEffect, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { Link } from '../../components/Link';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { paths } from '../../app/paths';
import { ErrorView, LoadingView } from '../../components/StatusView';
import ui from '../../components/ui.module.css';
import { OrderLines } from '../../components/OrderLines';
import { orderReference, paymentLabel, paymentState, type Order } from '../../lib/orderTypes';
import { errorMessage } from '../../lib/api';
import { formatMoney } from '../../lib/format';
import styles from '../adminScreens.module.css';
import { TableScroll } from '../table/TableScroll';
import { fetchAdminOrder, orderNoticeCleared, selectAdminOrders } from './adminOrdersSlice';
import { HoldNotice, RefundsTable } from './OrderMoney';
import { WriteOutcome } from '../WriteOutcome';
import { OrderStatusControl } from './OrderStatusControl';
import { RefundForm } from './RefundForm';
import { useAdminTitle } from '../adminTitle';

const CARRIERS: Record<string, string> = { 'royal-mail': 'Royal Mail', dpd: 'DPD', evri: 'Evri', other: 'Other' };

const dateTime = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });
const when = (iso: string) => `${dateTime.format(new Date(iso))} UTC`;

type Loaded = { status: 'loading' } | { status: 'failed'; message: string } | { status: 'loaded'; order: Order };

function OrderDetails({ order, busy, onUpdated }: { order: Order; busy: boolean; onUpdated: () => void }) {
  const navigate = useNavigate();
  const toList = paths.admin.to('order');
  return (
    <>
      <dl className={styles.facts} data-testid="admin-order-facts">
        <div>
          <dt>Placed</dt>
          <dd>{when(order.createdAt)}</dd>
        </div>
        <div>
          <dt>Status</dt>
          <dd data-testid="admin-order-view-status">{order.status}</dd>
        </div>
        <div>
          <dt>Payment</dt>
          <dd data-testid="admin-order-view-payment">
            {paymentLabel(order)}
            {order.card && ` (${order.card.brand} ending ${order.card.last4})`}
            {order.onHold && ' · on hold'}
          </dd>
        </div>
        <div>
          <dt>Customer</dt>
          <dd>
            {order.fullname}
            {order.email && (
              <>
                <br />
                <a href={`mailto:${order.email}`}>{order.email}</a>
              </>
            )}
            {order.phone && (
              <>
                <br />
                {order.phone}
              </>
            )}
          </dd>
        </div>
        <div>
          <dt>Delivery address</dt>
          <dd className={styles.preLine}>{order.address}</dd>
        </div>
        {order.ageCheck && (
          <div>
            <dt>Age check</dt>
            <dd data-testid="admin-order-age-check">
              <strong>Age check on delivery</strong>: the basket holds an age-restricted drink; the courier checks the buyer&apos;s ID.
            </dd>
          </div>
        )}
        {order.message && (
          <div>
            <dt>Message</dt>
            <dd className={styles.preLine}>{order.message}</dd>
          </div>
        )}
        <div>
          <dt>Carrier and tracking</dt>
          <dd data-testid="admin-order-tracking">
            {order.carrier ? CARRIERS[order.carrier] ?? order.carrier : 'Not shipped yet'}
            {order.trackingNumber &&
              (order.trackingUrl ? (
                <>
                  {' · '}
                  <a href={order.trackingUrl} target="_blank" rel="noreferrer">
                    {order.trackingNumber}
                  </a>
                </>
              ) : (
                ` · ${order.trackingNumber}`
              ))}
          </dd>
        </div>
      </dl>

      <HoldNotice order={order} busy={busy} onChanged={onUpdated} />

      <section aria-labelledby="order-move-title">
        <h3 id="order-move-title">Move the order on</h3>
        <OrderStatusControl order={order} busy={busy} onUpdated={onUpdated} onDeleted={() => void navigate(toList, { state: { keepNotice: true } })} />
      </section>

      <RefundsTable order={order} />
      {paymentState(order.status) === 'paid' && order.refunding == null && <RefundForm order={order} busy={busy} onRefunded={onUpdated} />}

      <section aria-labelledby="order-lines-title">
        <h3 id="order-lines-title">Lines</h3>
        <TableScroll label="Lines">
          <OrderLines lines={order.product} headings={['Price', 'Line total']} classes={{ table: styles.table, money: styles.num }} />
        </TableScroll>
        <dl className={styles.totals} data-testid="admin-order-totals">
          <dt>Subtotal</dt>
          <dd>{formatMoney(order.subtotal)}</dd>
          {order.discount > 0 && (
            <>
              <dt>Discount{order.code ? ` (${order.code}, ${order.codeRate}%)` : ''}</dt>
              <dd>−{formatMoney(order.discount)}</dd>
            </>
          )}
          <dt>Shipping</dt>
          <dd>{order.shipping > 0 ? formatMoney(order.shipping) : 'Free'}</dd>
          <dt>Total</dt>
          <dd>
            <strong>{formatMoney(order.total)}</strong>
          </dd>
          {order.vat != null && (
            <>
              <dt>VAT included ({order.vatRate}%)</dt>
              <dd>{formatMoney(order.vat)}</dd>
            </>
          )}
        </dl>
      </section>

      <section aria-labelledby="order-history-title">
        <h3 id="order-history-title">History</h3>
        <ol data-testid="admin-order-history">
          {order.history.map((step) => (
            <li key={`${step.status}-${step.at}`}>
              <strong>{step.status}</strong> · <time dateTime={step.at}>{when(step.at)}</time>
            </li>
          ))}
        </ol>
      </section>

      <p>
        <Link to={paths.receipt.to(order._id)}>VAT receipt</Link> · <Link to={paths.order.to(order._id)}>The customer's order page</Link>
      </p>
    </>
  );
}

export default function AdminOrderScreen() {
  const dispatch = useAppDispatch();
  const { id = '' } = useParams();
  const { busy, actionError, notice } = useAppSelector(selectAdminOrders);
  const [loaded, setLoaded] = useState<Loaded>({ status: 'loading' });
  const load = useCallback(() => {
    dispatch(fetchAdminOrder(id)).then(
      (order) => setLoaded({ status: 'loaded', order }),
      (error: unknown) => setLoaded({ status: 'failed', message: errorMessage(error) }),
    );
  }, [dispatch, id]);
  useEffect(load, [load]);
  useEffect(() => {
    dispatch(orderNoticeCleared());
  }, [dispatch, id]);
  const reference = loaded.status === 'loaded' ? orderReference(loaded.order) : '';
  useAdminTitle(reference ? `Order ${reference}` : 'Order', 'Orders');

  return (
    <section className={styles.screen} aria-labelledby="order-title">
      <p>
        <Link to={paths.admin.to('order')}>← All orders</Link>
      </p>
      <h2 id="order-title" className={ui.sectionTitle}>
        {reference ? `Order ${reference}` : 'Order'}
      </h2>
      {actionError && (
        <p className={styles.alert} role="alert" data-testid="order-action-error">
          {actionError}
        </p>
      )}
      <WriteOutcome notice={notice} />
      {loaded.status === 'loading' && <LoadingView label="Loading the order" cards={2} />}
      {loaded.status === 'failed' && (
        <ErrorView
          title="We could not load the order"
          message={loaded.message}
          onRetry={() => {
            setLoaded({ status: 'loading' });
            load();
          }}
        />
      )}
      {loaded.status === 'loaded' && <OrderDetails order={loaded.order} busy={busy} onUpdated={load} />}
    </section>
  );
}
