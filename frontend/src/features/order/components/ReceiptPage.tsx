// /order/{id}/receipt: the printable VAT receipt of a paid order (the confirmation e-mail and the order page
// link here). The seller's name, address and VAT number from the site info; the order's lines at their
// VAT-inclusive prices; the total, the VAT rate and amount the order recorded when it was sold, and the net.
// A refunded order keeps its receipt, and each refund of it has a credit note: listed under the receipt, and
// shown alone and printable with `?creditNote={refund id}` (the refund e-mail links there).
import { useEffect } from 'react';
import { useParams } from 'react-router';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { paths } from '../../../app/paths';
import { StatusView } from '../../../components/StatusView';
import ui from '../../../components/ui.module.css';
import { formatDate } from '../../../lib/dates';
import { formatMoney } from '../../../lib/format';
import { companyLine } from '../../../lib/trader';
import { usePageMeta } from '../../../lib/meta';
import { selectSiteInfo } from '../../../state/site/siteSlice';
import { fetchOrderDetail, orderDetailReloadRequested, selectOrderDetail } from '../orderSlice';
import { useQuery } from '../../../lib/useQuery';
import { creditNotes, hasReceipt, isProgressOnly, orderReference, type Order, type Refund } from '../../../lib/orderTypes';
import { useOrderKey } from '../orderKey';
import { OrderLines } from '../../../components/OrderLines';
import styles from './Receipt.module.css';
import { Link } from '../../../components/Link';

const excludingVat = (gross: number, vat: number) => (Math.round(gross * 100) - Math.round(vat * 100)) / 100;

function Seller() {
  const info = useAppSelector(selectSiteInfo);
  return (
    <div className={styles.seller} data-testid="receipt-seller">
      <strong>{info?.name}</strong>
      {info?.address && <div>{info.address}</div>}
      {info?.vatNumber && <div>VAT number: {info.vatNumber}</div>}
      {companyLine(info) && <div>{companyLine(info)}</div>}
    </div>
  );
}

/** One refund's credit note: what it takes off the VAT receipt. */
function CreditNote({ order, refund }: { order: Order; refund: Refund }) {
  const key = useOrderKey();
  const note = refund.creditNote;
  if (!note || refund.status === 'failed') {
    return (
      <p data-testid="no-credit-note">
        This refund has no credit note{refund.status === 'failed' ? ': the bank could not make it, so nothing was refunded' : ''}.{' '}
        <Link to={paths.order.to(order._id, key)}>See the order</Link>.
      </p>
    );
  }
  return (
    <article className={styles.receipt} aria-labelledby="credit-note-title" data-testid="credit-note">
      <header className={styles.head}>
        <div>
          <h1 id="credit-note-title">Credit note {note.number}</h1>
          <p>
            Against the VAT receipt of order <strong>{orderReference(order)}</strong>
            <br />
            Date: {formatDate(note.date)}
          </p>
        </div>
        <Seller />
      </header>
      <p>
        Credited to: {order.fullname}, {order.address}
      </p>
      {refund.lines.length > 0 || refund.delivery ? (
        <ul>
          {refund.lines.map((line) => (
            <li key={line.product}>
              {line.qty} × {line.name}
            </li>
          ))}
          {refund.delivery && <li>Delivery</li>}
        </ul>
      ) : (
        <p>{refund.reason}</p>
      )}
      <dl className={styles.totals} data-testid="credit-note-totals">
        <dt>Refunded</dt>
        <dd>
          <strong>{formatMoney(note.amount)}</strong>
        </dd>
        <dt>Excluding VAT</dt>
        <dd>{formatMoney(excludingVat(note.amount, note.vat))}</dd>
        <dt>VAT at {note.vatRate}%</dt>
        <dd data-testid="credit-note-vat">{formatMoney(note.vat)}</dd>
      </dl>
      <p className={styles.note}>
        Refunded to {order.card ? `the ${order.card.brand} card ending ${order.card.last4}` : 'the card that paid'}. Refund reference{' '}
        {refund._id}.
      </p>
      <p className={styles.actions}>
        <button type="button" className={ui.primary} onClick={() => window.print()}>
          Print
        </button>{' '}
        <Link to={paths.receipt.to(order._id, key)}>The VAT receipt</Link> · <Link to={paths.order.to(order._id, key)}>Back to the order</Link>
      </p>
    </article>
  );
}

function Receipt({ order }: { order: Order }) {
  const key = useOrderKey();
  if (!hasReceipt(order)) {
    return (
      <p data-testid="no-receipt">
        This order has no VAT receipt: it was never paid for. <Link to={paths.order.to(order._id, key)}>See the order</Link>.
      </p>
    );
  }
  const vat = order.vat ?? 0;
  return (
    <article className={styles.receipt} aria-labelledby="receipt-title">
      <header className={styles.head}>
        <div>
          <h1 id="receipt-title">VAT receipt</h1>
          <p>
            Order <strong>{orderReference(order)}</strong>
            <br />
            Date of sale: {formatDate(order.createdAt)}
          </p>
        </div>
        <Seller />
      </header>
      <p>
        Sold to: {order.fullname}, {order.address}
      </p>
      <OrderLines lines={order.product} headings={['Unit price', 'Amount']} classes={{ table: styles.table, money: styles.money }} />
      <dl className={styles.totals} data-testid="receipt-totals">
        <dt>Subtotal</dt>
        <dd>{formatMoney(order.subtotal)}</dd>
        {order.discount > 0 && (
          <>
            <dt>Discount</dt>
            <dd>−{formatMoney(order.discount)}</dd>
          </>
        )}
        <dt>Delivery</dt>
        <dd>{order.shipping === 0 ? 'Free' : formatMoney(order.shipping)}</dd>
        <dt>Total paid</dt>
        <dd>
          <strong>{formatMoney(order.total)}</strong>
        </dd>
        <dt>Total excluding VAT</dt>
        <dd>{formatMoney(excludingVat(order.total, vat))}</dd>
        <dt>VAT at {order.vatRate}%</dt>
        <dd data-testid="receipt-vat">{formatMoney(vat)}</dd>
      </dl>
      <p className={styles.note}>Prices include VAT. {order.card ? `Paid by ${order.card.brand} ending ${order.card.last4}.` : 'Paid by card.'}</p>
      {creditNotes(order).length > 0 && (
        <section aria-labelledby="credit-notes-title">
          <h2 id="credit-notes-title">Credit notes against this receipt</h2>
          <ul data-testid="receipt-credit-notes">
            {creditNotes(order).map((refund) => (
              <li key={refund._id}>
                <Link to={paths.receipt.creditNote(order._id, refund._id, key)}>{refund.creditNote?.number}</Link>:{' '}
                {formatMoney(refund.amount)} on {formatDate(refund.createdAt)}
                {refund.status === 'failed' && ' (void: the bank could not make the refund)'}
              </li>
            ))}
          </ul>
        </section>
      )}
      <p className={styles.actions}>
        <button type="button" className={ui.primary} onClick={() => window.print()}>
          Print
        </button>{' '}
        <Link to={paths.order.to(order._id, key)}>Back to the order</Link>
      </p>
    </article>
  );
}

export default function ReceiptPage() {
  const { id = '' } = useParams();
  usePageMeta('VAT receipt', `The VAT receipt of order ${id} and its credit notes.`);
  const dispatch = useAppDispatch();
  const detail = useAppSelector(selectOrderDetail);
  // The receipt names the buyer: it opens with the order link's key (the e-mails carry it) or the owner's token.
  const key = useOrderKey();
  useEffect(() => {
    void dispatch(fetchOrderDetail(id, key));
  }, [dispatch, id, key]);
  useEffect(() => {
    if (detail.reload) void dispatch(fetchOrderDetail(id, key));
  }, [dispatch, id, key, detail.reload]);
  const answer = detail.id === id ? detail.order : null;
  const order = answer && !isProgressOnly(answer) ? answer : null;
  const noteOf = useQuery().get('creditNote');
  const refund = order && noteOf ? order.refunds.find((r) => r._id === noteOf) : undefined;
  return (
    <div className={ui.container}>
      <StatusView
        status={detail.status}
        error={detail.error}
        onRetry={() => dispatch(orderDetailReloadRequested())}
        isEmpty={!answer}
        loadingLabel="Loading the receipt"
        errorTitle="We could not load this receipt"
        empty={<p>No order here.</p>}
      >
        {answer && !order && (
          <p data-testid="receipt-needs-key">
            This receipt is the buyer's: open it from the link in your order e-mail, or <Link to={paths.login.to()}>log in</Link> with
            the e-mail address you ordered with. <Link to={paths.order.to(answer._id)}>Where the order stands</Link>
          </p>
        )}
        {order && noteOf && refund && <CreditNote order={order} refund={refund} />}
        {order && noteOf && !refund && (
          <p data-testid="no-credit-note">
            This order has no such refund. <Link to={paths.receipt.to(order._id, key)}>The VAT receipt</Link>
          </p>
        )}
        {order && !noteOf && <Receipt order={order} />}
      </StatusView>
    </div>
  );
}
