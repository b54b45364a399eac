// /new/uk/result: monthly sales (products sold, orders, paid, refunded and kept in pounds, and the VAT kept) as
// a table and a plain SVG bar chart of what was kept, the month's reconciliation with Stripe, and the customer
// e-mail list. Paid money only: an order counts in the month it was paid, a refund in the month it was made.
import { useEffect } from 'react';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { StatusView } from '../../components/StatusView';
import ui from '../../components/ui.module.css';
import { formatMoney } from '../../lib/format';
import styles from '../adminScreens.module.css';
import { TableScroll } from '../table/TableScroll';
import { Reconciliation } from './Reconciliation';
import { fetchResults, resultsReloadRequested, selectResults, type MonthResult } from './resultsSlice';

const monthName = new Intl.DateTimeFormat('en-GB', { month: 'short', year: 'numeric', timeZone: 'UTC' });
export const monthLabel = ({ _id }: MonthResult): string => monthName.format(new Date(Date.UTC(_id.year, _id.month - 1, 1)));

/** Payments per month in whole pounds, oldest on the left, the last 12 months; bars scale to the best month. */
export function PaymentsChart({ results }: { results: MonthResult[] }) {
  const months = [...results].reverse().slice(-12);
  const max = Math.max(...months.map((m) => m.totalPayments), 1);
  // Always 12 slots wide, so one month's bar is as wide as in a full year, not the whole chart.
  const width = 40 * 12 + 20;
  const height = 200;
  const plot = 130;
  const top = 20;
  return (
    <svg className={styles.chart} viewBox={`0 0 ${width} ${height}`} role="img" aria-label="Payments per month">
      <line className={styles.axis} x1={10} x2={width - 10} y1={top + plot} y2={top + plot} />
      {months.map((m, i) => {
        const h = Math.round((Math.max(m.totalPayments, 0) / max) * plot);
        const x = 15 + i * 40;
        return (
          <g key={`${m._id.year}-${m._id.month}`}>
            <title>{`${monthLabel(m)}: ${formatMoney(m.totalPayments)}`}</title>
            <rect className={styles.bar} x={x} y={top + plot - h} width={28} height={h} rx={3} />
            <text className={styles.chartLabel} x={x + 14} y={top + plot - h - 4} textAnchor="middle">
              £{Math.round(m.totalPayments)}
            </text>
            <text className={styles.chartLabel} x={x + 14} y={top + plot + 16} textAnchor="middle">
              {monthLabel(m).slice(0, 3)}
            </text>
            <text className={styles.chartLabel} x={x + 14} y={top + plot + 30} textAnchor="middle">
              {String(m._id.year).slice(2)}
            </text>
          </g>
        );
      })}
    </svg>
  );
}

export default function ResultScreen() {
  const dispatch = useAppDispatch();
  const results = useAppSelector(selectResults);
  useEffect(() => {
    void dispatch(fetchResults());
  }, [dispatch]);
  useEffect(() => {
    if (results.reload) void dispatch(fetchResults());
  }, [dispatch, results.reload]);

  return (
    <section className={styles.screen} aria-labelledby="results-title">
      <h2 id="results-title" className={ui.sectionTitle}>
        Sales results
      </h2>
      <StatusView
        status={results.status}
        error={results.error}
        onRetry={() => dispatch(resultsReloadRequested())}
        isEmpty={results.results.length === 0 && results.emails.length === 0}
        loadingLabel="Loading sales results"
        errorTitle="We could not load the results"
        empty={<p>No sales yet.</p>}
      >
        <TableScroll label="Monthly sales">
          <table className={styles.table} data-testid="results-table">
            <caption className="visually-hidden">Monthly sales, newest first: paid in the month, refunded in the month, kept</caption>
            <thead>
              <tr>
                <th scope="col">Month</th>
                <th scope="col" className={styles.num}>
                  Products sold
                </th>
                <th scope="col" className={styles.num}>
                  Orders
                </th>
                <th scope="col" className={styles.num}>
                  Paid
                </th>
                <th scope="col" className={styles.num}>
                  Refunded
                </th>
                <th scope="col" className={styles.num}>
                  Kept
                </th>
                <th scope="col" className={styles.num}>
                  VAT kept
                </th>
              </tr>
            </thead>
            <tbody>
              {results.results.map((m) => (
                <tr key={`${m._id.year}-${m._id.month}`} data-testid="results-month">
                  <th scope="row">{monthLabel(m)}</th>
                  <td className={styles.num}>{m.totalProductsSold}</td>
                  <td className={styles.num}>{m.totalOrders}</td>
                  <td className={styles.num}>{formatMoney(m.totalPaid)}</td>
                  <td className={styles.num}>
                    {formatMoney(m.totalRefunded)}
                    {m.totalRefunds > 0 && <small> ({m.totalRefunds})</small>}
                  </td>
                  <td className={styles.num}>{formatMoney(m.totalPayments)}</td>
                  <td className={styles.num}>{formatMoney(m.totalVat)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
        {results.results.length > 0 && <PaymentsChart results={results.results} />}
        <Reconciliation />
        <h3>Customer e-mails ({results.emails.length})</h3>
        <ul className={styles.emails} data-testid="results-emails">
          {results.emails.map((email) => (
            <li key={email}>{email}</li>
          ))}
        </ul>
      </StatusView>
    </section>
  );
}
