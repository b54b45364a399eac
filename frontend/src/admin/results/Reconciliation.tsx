// The month's reconciliation on the sales results screen (GET /api/order/reconciliation/{month}): the shop's
// paid orders and refunds beside Stripe's charges, refunds, fees, net and payouts, every difference listed,
// and the month's lines (both sides) as a CSV for the accounts. `make reconcile STAGE= MONTH=` prints the
// same report from the command line.
import { useCallback, useId, useState, type FormEvent } from 'react';
import type { Schemas } from '../../lib/api';
import { formatMoney } from '../../lib/format';
import type { AppThunk } from '../../lib/thunk';
import ui from '../../components/ui.module.css';
import styles from '../adminScreens.module.css';
import { downloadCsv, toCsv } from '../table/csv';
import { TableScroll } from '../table/TableScroll';
import { Part, useCall } from '../useCall';

export type Report = Schemas['Reconciliation'];

const fetchReconciliation =
  (month: string): AppThunk<Promise<Report>> =>
  (_dispatch, _getState, { api }) =>
    api.get('/order/reconciliation/{month}', { params: { month } });

/** `YYYY-MM` of `now` (UTC, as the shop's months are). */
export const monthOfDate = (now: Date): string => now.toISOString().slice(0, 7);

/** The month's lines as the accounts' CSV: one row per money movement, shop's and Stripe's. */
export function reconciliationCsv(report: Report): string {
  return toCsv(
    ['Date', 'Side', 'Kind', 'Order', 'Order id', 'PaymentIntent', 'Reference', 'Amount', 'Fee', 'Net', 'VAT'],
    report.lines.map((line) => [
      line.at,
      line.side,
      line.kind,
      line.number,
      line.orderId,
      line.paymentIntent,
      line.reference,
      line.amount,
      line.fee,
      line.net,
      line.vat,
    ]),
  );
}

const DIFFERENCE: Record<string, string> = {
  'missing-at-stripe': 'Not at Stripe',
  'missing-in-shop': 'Not in the shop',
  'amount-differs': 'Amounts differ',
  dispute: 'Dispute',
};

function Figures({ report }: { report: Report }) {
  const { shop, stripe } = report;
  return (
    <div className={styles.besides} data-testid="reconciliation-figures">
      <dl className={styles.stats}>
        <div>
          <dt>The shop: paid orders</dt>
          <dd>
            {shop.payments}, {formatMoney(shop.paid)}
          </dd>
        </div>
        <div>
          <dt>Refunds</dt>
          <dd>
            {shop.refunds}, {formatMoney(shop.refunded)}
          </dd>
        </div>
        <div>
          <dt>Late payments (refunded)</dt>
          <dd>
            {shop.latePayments}, {formatMoney(shop.lateReceived)}
          </dd>
        </div>
        <div>
          <dt>Net</dt>
          <dd data-testid="reconciliation-shop-net">{formatMoney(shop.net)}</dd>
        </div>
      </dl>
      <dl className={styles.stats}>
        <div>
          <dt>Stripe: charges</dt>
          <dd>
            {stripe.charges}, {formatMoney(stripe.charged)}
          </dd>
        </div>
        <div>
          <dt>Refunds</dt>
          <dd>
            {stripe.refunds}, {formatMoney(stripe.refunded)}
          </dd>
        </div>
        <div>
          <dt>Fees</dt>
          <dd>{formatMoney(stripe.fees)}</dd>
        </div>
        <div>
          <dt>Disputes</dt>
          <dd>{formatMoney(stripe.disputes)}</dd>
        </div>
        <div>
          <dt>Net</dt>
          <dd data-testid="reconciliation-stripe-net">{formatMoney(stripe.net)}</dd>
        </div>
        <div>
          <dt>Paid out</dt>
          <dd>{formatMoney(stripe.payouts)}</dd>
        </div>
      </dl>
    </div>
  );
}

function Differences({ report }: { report: Report }) {
  if (report.differences.length === 0) {
    return (
      <p className={styles.success} data-testid="reconciliation-none">
        No differences: every payment and refund of {report.month} matches Stripe's.
      </p>
    );
  }
  return (
    <TableScroll label="Differences">
      <table className={styles.table} data-testid="reconciliation-differences">
        <caption>
          {report.differences.length} difference{report.differences.length === 1 ? '' : 's'}
        </caption>
        <thead>
          <tr>
            <th scope="col">Difference</th>
            <th scope="col">What</th>
            <th scope="col">Order</th>
            <th scope="col">Reference</th>
            <th scope="col" className={styles.num}>
              Shop
            </th>
            <th scope="col" className={styles.num}>
              Stripe
            </th>
            <th scope="col">Note</th>
          </tr>
        </thead>
        <tbody>
          {report.differences.map((d, i) => (
            <tr key={`${d.kind}-${d.reference ?? d.paymentIntent ?? i}`} data-testid="reconciliation-difference">
              <td>{DIFFERENCE[d.kind] ?? d.kind}</td>
              <td>{d.what}</td>
              <td>{d.number ?? d.orderId ?? '—'}</td>
              <td>{d.reference ?? d.paymentIntent ?? '—'}</td>
              <td className={styles.num}>{d.shop == null ? '—' : formatMoney(d.shop)}</td>
              <td className={styles.num}>{d.stripe == null ? '—' : formatMoney(d.stripe)}</td>
              <td>{d.note}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}

function Shown({ month }: { month: string }) {
  const call = useCallback(() => fetchReconciliation(month), [month]);
  const [state, retry] = useCall(call);
  return (
    <Part state={state} retry={retry} what={`the reconciliation of ${month}`}>
      {(report) => (
        <>
          <Figures report={report} />
          <Differences report={report} />
          <p>
            <button
              type="button"
              className={`${ui.secondary} ${styles.small}`}
              onClick={() => downloadCsv(`reconciliation-${report.month}.csv`, reconciliationCsv(report))}
            >
              Download the month as CSV ({report.lines.length} lines)
            </button>{' '}
            <small>Months are calendar months in UTC, as the shop's dates are.</small>
          </p>
        </>
      )}
    </Part>
  );
}

export function Reconciliation({ now = new Date() }: { now?: Date }) {
  const id = useId();
  const [month, setMonth] = useState(() => monthOfDate(now));
  const [shown, setShown] = useState<string | null>(null);
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (/^\d{4}-\d{2}$/.test(month)) setShown(month);
  };
  return (
    <section aria-labelledby={`${id}-title`} data-testid="reconciliation">
      <h3 id={`${id}-title`}>Reconcile a month with Stripe</h3>
      <form className={styles.toolbar} onSubmit={onSubmit}>
        <label htmlFor={`${id}-month`}>Month</label>
        <input
          id={`${id}-month`}
          className={styles.select}
          type="month"
          required
          pattern="\d{4}-\d{2}"
          value={month}
          onChange={(e) => setMonth(e.target.value)}
        />
        <button type="submit" className={`${ui.primary} ${styles.small}`}>
          Reconcile
        </button>
      </form>
      {shown && <Shown key={shown} month={shown} />}
    </section>
  );
}
