// /order/{id}/receipt: the printable VAT receipt of a paid order (the confirmation e-mail and the order page
// link here). The seller's name, address and VAT number from the site info; the order's lines at their
// VAT-inclusive prices; the total, the VAT rate and amount the order recorded when it was sold, and the net.
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
import { selectSiteInfo } from '../../site/siteSlice';
import { fetchOrderDetail, orderDetailReloadRequested, selectOrderDetail } from '../orderSlice';
import { hasReceipt, orderReference, type Order } from '../orderTypes';
import { OrderLines } from './OrderLines';
import styles from './Receipt.module.css';
import { Link } from '../../../components/Link';

function Receipt({ order }: { order: Order }) {
  const info = useAppSelector(selectSiteInfo);
  if (!hasReceipt(order)) {
    return (
      <p data-testid="no-receipt">
        This order has no VAT receipt: it was not paid, or the payment was refunded. <Link to={paths.order.to(order._id)}>See the order</Link>.
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
        <div className={styles.seller} data-testid="receipt-seller">
          <strong>{info?.name}</strong>
          {info?.address && <div>{info.address}</div>}
          {info?.vatNumber && <div>VAT number: {info.vatNumber}</div>}
          {companyLine(info) && <div>{companyLine(info)}</div>}
        </div>
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
        <dd>{formatMoney((Math.round(order.total * 100) - Math.round(vat * 100)) / 100)}</dd>
        <dt>VAT at {order.vatRate}%</dt>
        <dd data-testid="receipt-vat">{formatMoney(vat)}</dd>
      </dl>
      <p className={styles.note}>Prices include VAT. {order.card ? `Paid by ${order.card.brand} ending ${order.card.last4}.` : 'Paid by card.'}</p>
      <p className={styles.actions}>
        <button type="button" className={ui.primary} onClick={() => window.print()}>
          Print
        </button>{' '}
        <Link to={paths.order.to(order._id)}>Back to the order</Link>
      </p>
    </article>
  );
}

export default function ReceiptPage() {
  const { id = '' } = useParams();
  usePageMeta('VAT receipt', `The VAT receipt of order ${id}.`);
  const dispatch = useAppDispatch();
  const detail = useAppSelector(selectOrderDetail);
  useEffect(() => {
    void dispatch(fetchOrderDetail(id));
  }, [dispatch, id]);
  useEffect(() => {
    if (detail.reload) void dispatch(fetchOrderDetail(id));
  }, [dispatch, id, detail.reload]);
  const order = detail.id === id ? detail.order : null;
  return (
    <div className={ui.container}>
      <StatusView
        status={detail.status}
        error={detail.error}
        onRetry={() => dispatch(orderDetailReloadRequested())}
        isEmpty={!order}
        loadingLabel="Loading the receipt"
        errorTitle="We could not load this receipt"
        empty={<p>No order here.</p>}
      >
        {order && <Receipt order={order} />}
      </StatusView>
    </div>
  );
}
