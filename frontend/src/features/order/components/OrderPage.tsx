// /myorder/{id}: the order as the server holds it (lines, its own totals, status, delivery details), and what
// happened to the payment in words: paid, waiting for the bank, not completed, refunded or cancelled.
import { useEffect, useState } from 'react';
import { useLocation, useParams } from 'react-router';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { paths } from '../../../app/paths';
import { PageHeading } from '../../../components/PageHeading';
import { StatusView } from '../../../components/StatusView';
import ui from '../../../components/ui.module.css';
import { formatDate } from '../../../lib/dates';
import { formatMoney } from '../../../lib/format';
import { usePageMeta } from '../../../lib/meta';
import { buyAgain, type BuyAgainOutcome } from '../buyAgain';
import { fetchOrderDetail, orderDetailReloadRequested, selectOrderDetail } from '../orderSlice';
import {
  hasReceipt,
  isPartlyRefunded,
  isProgressOnly,
  orderReference,
  paymentState,
  refundFor,
  type Order,
  type OrderProgress,
  type Refund,
} from '../../../lib/orderTypes';
import { useOrderKey } from '../orderKey';
import { selectIsLoggedIn } from '../../../state/session/authSlice';
import { CreateAccount } from './CreateAccount';
import { OrderLines } from '../../../components/OrderLines';
import styles from './Order.module.css';
import { Link } from '../../../components/Link';

/** While the bank decides, the page asks again this often. */
const PENDING_POLL_MS = 5000;

/** What happened to the payment, for the customer. */
export function PaymentNote({ order, onCheckAgain }: { order: Order; onCheckAgain?: () => void }) {
  const card = order.card ? `${order.card.brand} ending ${order.card.last4}` : 'card';
  const late = order.refunds.some((refund) => refund.late);
  switch (order.status) {
    case 'pending':
      return (
        <div className={styles.note} role="status" data-testid="payment-note" data-state="pending">
          <p>We are waiting for your bank to confirm the payment. This page updates when it does; nothing more is needed from you.</p>
          {onCheckAgain && (
            <button type="button" className={ui.secondary} onClick={onCheckAgain}>
              Check again
            </button>
          )}
        </div>
      );
    case 'expired':
    case 'cancelled':
      if (late) {
        return (
          <p className={`${styles.note} ${styles.noteWarn}`} data-testid="payment-note" data-state="late-refund">
            Your bank confirmed the payment after this order had been released, so the order was not placed. We refunded the{' '}
            {formatMoney(order.refunded)} in full to your {card}; refunds usually reach your account within 5 to 10 working days. Refund
            reference: <strong data-testid="refund-id">{order.refundId ?? 'on its way'}</strong>
          </p>
        );
      }
      return order.status === 'expired' ? (
        <p className={`${styles.note} ${styles.noteWarn}`} data-testid="payment-note" data-state="expired">
          Your payment did not complete, so this order was not placed and nothing was charged. Your drinks are back on sale: you can order
          them again from the shop.
        </p>
      ) : (
        <p className={`${styles.note} ${styles.noteWarn}`} data-testid="payment-note" data-state="cancelled">
          This order was cancelled. Nothing was charged for it.
        </p>
      );
    case 'refunded':
      return (
        <p className={styles.note} data-testid="payment-note" data-state="refunded">
          This order is refunded: {formatMoney(order.refunded)} refunded to your {card}. Refunds usually reach your account within 5 to 10
          working days. Refund reference: <strong data-testid="refund-id">{order.refundId ?? 'on its way'}</strong>
        </p>
      );
    default:
      if (isPartlyRefunded(order)) {
        return (
          <p className={styles.note} data-testid="payment-note" data-state="partly-refunded">
            Paid by {card}, partly refunded {formatMoney(order.refunded)}. Refunds usually reach your account within 5 to 10 working days.
          </p>
        );
      }
      return (
        <p className={styles.note} data-testid="payment-note" data-state="paid">
          Paid by {card}.
        </p>
      );
  }
}

const REFUND_STATES: Record<Refund['status'], string> = {
  pending: 'on its way',
  succeeded: 'refunded',
  failed: 'failed at the bank',
};

/** Every refund of the order: when, how much, what for, where it stands, and its credit note. */
export function Refunds({ order }: { order: Order }) {
  const key = useOrderKey();
  if (order.refunds.length === 0) return null;
  return (
    <section className={styles.box} aria-labelledby="order-refunds">
      <h2 id="order-refunds" className={ui.sectionTitle}>
        Refunds
      </h2>
      <ul className={styles.history} data-testid="order-refunds">
        {order.refunds.map((refund) => (
          <li key={refund._id} data-testid="order-refund" data-status={refund.status}>
            <time dateTime={refund.createdAt}>{formatDate(refund.createdAt)}</time>: <strong>{formatMoney(refund.amount)}</strong> for{' '}
            {refundFor(refund)} ({REFUND_STATES[refund.status]})
            {refund.creditNote && refund.status !== 'failed' && (
              <>
                {' '}
                · <Link to={paths.receipt.creditNote(order._id, refund._id, key)}>Credit note {refund.creditNote.number}</Link>
              </>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** How the page names each status in the history. */
const STATUS_LABELS: Record<Order['status'], string> = {
  pending: 'Placed, waiting for the payment',
  paid: 'Paid',
  shipped: 'Shipped',
  delivered: 'Delivered',
  cancelled: 'Cancelled',
  expired: 'Payment not completed',
  refunded: 'Refunded',
};

export const CARRIERS: Record<NonNullable<Order['carrier']>, string> = {
  'royal-mail': 'Royal Mail',
  dpd: 'DPD',
  evri: 'Evri',
  other: 'Courier',
};

/** The order's number, date and status. */
function Headline({ order }: { order: Pick<Order, '_id' | 'number' | 'createdAt' | 'status'> }) {
  return (
    <p>
      Order <strong data-testid="order-number">{orderReference(order)}</strong> placed on {formatDate(order.createdAt)}:{' '}
      <span className={styles.status} data-testid="order-status">
        {order.status}
      </span>
    </p>
  );
}

/** Where the order has got to: the parcel's tracking and every status it has had. */
function ProgressSteps({ order }: { order: Pick<Order, 'history' | 'carrier' | 'trackingNumber' | 'trackingUrl'> }) {
  if (order.history.length === 0 && !order.trackingNumber) return null;
  return (
    <section className={styles.box} aria-labelledby="order-progress">
      <h2 id="order-progress" className={ui.sectionTitle}>
        Progress
      </h2>
      {order.trackingNumber && (
        <p data-testid="order-tracking">
          {order.carrier ? `${CARRIERS[order.carrier]} tracking number ` : 'Tracking number '}
          <strong>{order.trackingNumber}</strong>
          {order.trackingUrl && (
            <>
              {' '}
              · <a href={order.trackingUrl}>Track your parcel</a>
            </>
          )}
        </p>
      )}
      <ol className={styles.history} data-testid="order-history-steps">
        {order.history.map((step) => (
          <li key={`${step.status}-${step.at}`}>
            <strong>{STATUS_LABELS[step.status]}</strong> <time dateTime={step.at}>{formatDate(step.at)}</time>
          </li>
        ))}
      </ol>
    </section>
  );
}

/**
 * The page as the bare id shows it: where the order stands. The drinks, the name and the address are the
 * buyer's: their order e-mail's link (or logging in) shows them.
 */
function ProgressOnly({ order }: { order: OrderProgress }) {
  return (
    <div className={styles.panel}>
      <Headline order={order} />
      <ProgressSteps order={order} />
      <p className={styles.note} data-testid="order-progress-only">
        The drinks, the name and the delivery address are shown to the buyer only: open the link in your order e-mail, or{' '}
        <Link to={paths.login.to()}>log in</Link> with the e-mail address you ordered with.
      </p>
    </div>
  );
}

export function OrderDetails({ order, onCheckAgain }: { order: Order; onCheckAgain?: () => void }) {
  const key = useOrderKey();
  return (
    <div className={styles.panel}>
      <Headline order={order} />
      <PaymentNote order={order} {...(onCheckAgain ? { onCheckAgain } : {})} />
      <section className={styles.box} aria-labelledby="order-lines">
        <h2 id="order-lines" className={ui.sectionTitle}>
          Your drinks
        </h2>
        <OrderLines
          lines={order.product}
          headings={['Price', 'Line total']}
          classes={{ table: styles.table, money: styles.money }}
          rowTestId="order-line"
        />
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
        {order.vat != null && (
          <p data-testid="order-vat">
            VAT included: {formatMoney(order.vat)}
            {order.vatRate != null && ` (at ${order.vatRate}%)`}
          </p>
        )}
        {hasReceipt(order) && (
          <p>
            <Link to={paths.receipt.to(order._id, key)}>Your VAT receipt</Link> (printable)
          </p>
        )}
        {order.termsVersion != null && (
          <p>
            Sold on our{' '}
            <Link to={`${paths.policy.to('terms')}?version=${order.termsVersion}`} data-testid="order-terms">
              terms of sale
            </Link>{' '}
            as they stood when you ordered (version {order.termsVersion}).
          </p>
        )}
      </section>
      <Refunds order={order} />
      <ProgressSteps order={order} />
      <section className={styles.box} aria-labelledby="order-delivery">
        <h2 id="order-delivery" className={ui.sectionTitle}>
          Delivery
        </h2>
        <p>{order.fullname}</p>
        <p>{order.address}</p>
        {order.email && (
          <p>
            {order.phone} · {order.email}
          </p>
        )}
        {order.message && <p>{order.message}</p>}
        {order.card && (
          <p>
            Card: {order.card.brand} ending {order.card.last4}
          </p>
        )}
      </section>
    </div>
  );
}

/** Puts the order's drinks back in the basket at today's prices, and says what could not be added. */
function BuyAgain({ order }: { order: Order }) {
  const dispatch = useAppDispatch();
  const [outcome, setOutcome] = useState<BuyAgainOutcome | null>(null);
  const [busy, setBusy] = useState(false);
  const onClick = async () => {
    setBusy(true);
    setOutcome(await dispatch(buyAgain(order)));
    setBusy(false);
  };
  return (
    <div className={styles.box}>
      <button type="button" className={ui.secondary} onClick={() => void onClick()} disabled={busy}>
        {busy ? 'Adding…' : 'Buy again'}
      </button>
      {outcome && (
        <div role="status" data-testid="buy-again-outcome">
          {outcome.added.length > 0 && (
            <p>
              Added to your basket at today's prices: {outcome.added.join(', ')}. <Link to={paths.checkout.to()}>Check out</Link>
            </p>
          )}
          {outcome.missed.length > 0 && <p>Could not be added: {outcome.missed.join(', ')}.</p>}
        </div>
      )}
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
  // An e-mailed link's key (or the checkout's) opens the order without logging in.
  const key = useOrderKey();
  const loggedIn = useAppSelector(selectIsLoggedIn);

  useEffect(() => {
    void dispatch(fetchOrderDetail(id, key));
  }, [dispatch, id, key]);
  useEffect(() => {
    if (detail.reload) void dispatch(fetchOrderDetail(id, key));
  }, [dispatch, id, key, detail.reload]);

  const answer = detail.id === id ? detail.order : null;
  const progress = answer && isProgressOnly(answer) ? answer : null;
  const order = answer && !isProgressOnly(answer) ? answer : null;
  const pending = answer?.status === 'pending';
  useEffect(() => {
    if (!pending) return undefined;
    // The bank's answer reaches the shop by a webhook: look again until it has.
    const timer = window.setInterval(() => dispatch(orderDetailReloadRequested()), PENDING_POLL_MS);
    return () => window.clearInterval(timer);
  }, [dispatch, pending]);

  const state = order ? paymentState(order.status) : null;
  const lead =
    order && placed && state === 'paid'
      ? 'Thank you: your order is confirmed and a confirmation e-mail is on its way.'
      : order && placed && state === 'pending'
        ? 'Thank you: your order is placed and we are waiting for your bank.'
        : undefined;
  return (
    <div className={ui.container}>
      <PageHeading
        title="Your order"
        lead={lead}
        crumbs={[{ label: 'Home', to: paths.home.to() }, { label: 'Your order' }]}
      />
      <StatusView
        status={detail.status}
        error={detail.error}
        onRetry={() => dispatch(orderDetailReloadRequested())}
        isEmpty={!answer}
        loadingLabel="Loading your order"
        errorTitle="We could not load this order"
        empty={<p>No order here.</p>}
      >
        {progress && <ProgressOnly order={progress} />}
        {order && <OrderDetails order={order} onCheckAgain={() => dispatch(orderDetailReloadRequested())} />}
        {order && order.status !== 'pending' && <BuyAgain key={order._id} order={order} />}
        {order && placed && !loggedIn && state !== 'expired' && <CreateAccount order={order} />}
      </StatusView>
    </div>
  );
}
