// /new/uk/: the dashboard, where an admin lands after logging in. Today's orders, this month's takings beside
// last month's (from the sales counters: paid less refunded), the orders on hold (a dispute or a fraud
// warning), what unpaid orders waiting for 3-D Secure hold of each drink (StockHolds), the drinks running low (LOW_STOCK or fewer, sold out first), the
// reviews of the last 7 days waiting to be read (reviews go live at once: this is where an admin catches one
// to remove), and the last mailing; each with links to its screen, filtered where that helps. Each part
// loads, fails with a retry, or says it is empty on its own.
import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { paths } from '../../app/paths';
import { StatusView } from '../../components/StatusView';
import ui from '../../components/ui.module.css';
import { selectShowSubscription } from '../../state/session/authSlice';
import { orderReference, paymentLabel, paymentState } from '../../lib/orderTypes';
import { formatDate } from '../../lib/dates';
import { countOf, formatMoney } from '../../lib/format';
import styles from '../adminScreens.module.css';
import { fetchHeldOrders, fetchLastMailing, fetchOrdersSince, fetchReviewsSince, startOfDay } from './dashboardData';
import { holdLabel } from '../orders/OrderMoney';
import { LOW_STOCK } from '../products/stock';
import { adminProductsReloadRequested, fetchAdminProducts, selectAdminProducts } from '../products/adminProductsSlice';
import { fetchResults, resultsReloadRequested, selectResults, type MonthResult } from '../results/resultsSlice';
import { Link } from '../../components/Link';
import { Part, useCall } from '../useCall';
import { StockHolds } from './StockHolds';

/** Days of reviews the dashboard shows as waiting to be read. */
export const REVIEW_DAYS = 7;

/** The counters of the month `offset` months before `now` (UTC), or zeros when nothing sold. */
export function monthOf(results: MonthResult[], now: Date, offset = 0): MonthResult {
  const date = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - offset, 1));
  const id = { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1 };
  return (
    results.find((r) => r._id.year === id.year && r._id.month === id.month) ?? {
      _id: id,
      totalOrders: 0,
      totalProductsSold: 0,
      totalPayments: 0,
      totalPaid: 0,
      totalRefunded: 0,
      totalRefunds: 0,
      totalVat: 0,
    }
  );
}

function Card({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section className={styles.card} aria-labelledby={id} data-testid={id}>
      <h3 id={id}>{title}</h3>
      {children}
    </section>
  );
}

const day = (iso: string) => iso.slice(0, 10);

function TodaysOrders({ since }: { since: string }) {
  const call = useCallback(() => fetchOrdersSince(since), [since]);
  const [state, retry] = useCall(call);
  const today = day(since);
  return (
    <Card id="today-orders" title="Today's orders">
      <Part state={state} retry={retry} what="today's orders">
        {({ items, more }) => {
          // Today's orders are the paid ones: checkouts waiting for the bank, abandoned or cancelled are
          // attempts, counted apart.
          const paid = items.filter((o) => paymentState(o.status) === 'paid');
          const attempts = items.length - paid.length;
          return (
            <>
              <p className={styles.figure} data-testid="today-count">
                {more ? 'At least ' : ''}
                {countOf(paid.length, 'paid order')}
              </p>
              <p>{formatMoney(paid.reduce((sum, o) => sum + Math.round(o.total * 100), 0) / 100)} paid today</p>
              {attempts > 0 && (
                <p data-testid="today-attempts">
                  {countOf(attempts, 'other attempt')} (waiting for the bank, not completed, cancelled or refunded)
                </p>
              )}
              {paid.length > 0 && (
                <ul className={styles.recent}>
                  {paid.slice(0, 5).map((o) => (
                    <li key={o._id}>
                      <Link to={paths.admin.to(`order/${encodeURIComponent(o._id)}`)}>{orderReference(o)}</Link> {o.fullname}: {formatMoney(o.total)}, {o.status}
                      {o.refunded > 0 && `, ${paymentLabel(o)}`}
                    </li>
                  ))}
                </ul>
              )}
              <p>
                <Link to={`${paths.admin.to('order')}?from=${today}&to=${today}`}>Today's orders</Link> · <Link to={paths.admin.to('order')}>All orders</Link>
              </p>
            </>
          );
        }}
      </Part>
    </Card>
  );
}

function Revenue({ now }: { now: Date }) {
  const dispatch = useAppDispatch();
  const sales = useAppSelector(selectResults);
  useEffect(() => {
    if (sales.status === 'idle' || sales.reload) void dispatch(fetchResults());
  }, [dispatch, sales.status, sales.reload]);
  const thisMonth = monthOf(sales.results, now);
  const lastMonth = monthOf(sales.results, now, 1);
  return (
    <Card id="month-revenue" title="Revenue this month">
      <StatusView
        status={sales.status}
        error={sales.error}
        onRetry={() => dispatch(resultsReloadRequested())}
        isEmpty={sales.results.length === 0}
        loadingLabel="Loading this month's sales"
        errorTitle="We could not load the sales"
        empty={<p>No sales yet: the first order will show here.</p>}
      >
        <dl className={styles.stats} data-testid="month-stats">
          <div>
            <dt>Takings</dt>
            <dd>{formatMoney(thisMonth.totalPayments)}</dd>
            <dd className={styles.was}>last month {formatMoney(lastMonth.totalPayments)}</dd>
          </div>
          <div>
            <dt>Orders</dt>
            <dd>{thisMonth.totalOrders}</dd>
            <dd className={styles.was}>last month {lastMonth.totalOrders}</dd>
          </div>
          <div>
            <dt>Units sold</dt>
            <dd>{thisMonth.totalProductsSold}</dd>
            <dd className={styles.was}>last month {lastMonth.totalProductsSold}</dd>
          </div>
        </dl>
        <p>
          Paid {formatMoney(thisMonth.totalPaid)}, refunded {formatMoney(thisMonth.totalRefunded)} this month; VAT kept{' '}
          {formatMoney(thisMonth.totalVat)}
        </p>
      </StatusView>
      <p>
        <Link to={paths.admin.to('result')}>Sales results</Link>
      </p>
    </Card>
  );
}

/** Orders a dispute or a fraud warning holds: not to be shipped until the hold closes. */
function HeldOrders() {
  const [state, retry] = useCall(fetchHeldOrders);
  return (
    <Card id="held-orders" title="On hold">
      <Part state={state} retry={retry} what="the orders on hold">
        {(held) =>
          held.length === 0 ? (
            <p>No payment is disputed or under a fraud warning.</p>
          ) : (
            <>
              <p className={styles.figure} data-testid="held-count">
                {countOf(held.length, 'order')}
              </p>
              <p>on hold: do not ship them until the hold closes.</p>
              <ul className={styles.recent}>
                {held.map((o) => (
                  <li key={o._id}>
                    <Link to={paths.admin.to(`order/${encodeURIComponent(o._id)}`)}>{orderReference(o)}</Link> {o.fullname}:{' '}
                    {(o.holds ?? [])
                      .filter((h) => h.outcome == null)
                      .map(holdLabel)
                      .join('; ')}
                  </li>
                ))}
              </ul>
            </>
          )
        }
      </Part>
    </Card>
  );
}

function LowStock() {
  const dispatch = useAppDispatch();
  const drinks = useAppSelector(selectAdminProducts);
  useEffect(() => {
    if (drinks.status === 'idle' || drinks.reload) void dispatch(fetchAdminProducts());
  }, [dispatch, drinks.status, drinks.reload]);
  const low = drinks.products.filter((p) => p.TheNumber <= LOW_STOCK).sort((a, b) => a.TheNumber - b.TheNumber);
  return (
    <Card id="stock" title="Running low">
      <StatusView
        status={drinks.status}
        error={drinks.error}
        onRetry={() => dispatch(adminProductsReloadRequested())}
        isEmpty={low.length === 0}
        loadingLabel="Loading the stock"
        errorTitle="We could not load the stock"
        empty={<p>Every drink has more than {LOW_STOCK} units in stock.</p>}
      >
        <ul data-testid="low-stock">
          {low.map((p) => (
            <li key={p._id}>
              <strong>{p.name}</strong> ({p.qty}): {p.TheNumber > 0 ? `${p.TheNumber} left` : 'sold out'}
            </li>
          ))}
        </ul>
      </StatusView>
      <p>
        <Link to={`${paths.admin.to('products')}?sort=stock&dir=asc`}>Restock on the products screen</Link>
      </p>
    </Card>
  );
}

function RecentReviews({ since }: { since: string }) {
  const call = useCallback(() => fetchReviewsSince(since), [since]);
  const [state, retry] = useCall(call);
  return (
    <Card id="reviews-waiting" title="Reviews waiting">
      <Part state={state} retry={retry} what="the reviews">
        {({ items, more }) => (
          <>
            <p className={styles.figure} data-testid="reviews-count">
              {more ? 'At least ' : ''}
              {countOf(items.length, 'review')}
            </p>
            <p>from the last {REVIEW_DAYS} days, to read (reviews show in the shop at once).</p>
            {items.length > 0 && (
              <ul className={styles.recent}>
                {items.slice(0, 3).map((r) => (
                  <li key={r._id}>
                    {r.rating}/5 from {r.fullname} on {r.productName || r.products}
                  </li>
                ))}
              </ul>
            )}
            <p>
              <Link to={`${paths.admin.to('reviews')}?from=${day(since)}`}>Read them</Link>
            </p>
          </>
        )}
      </Part>
    </Card>
  );
}

function LastMailing() {
  const [state, retry] = useCall(fetchLastMailing);
  return (
    <Card id="last-mailing" title="Last mailing">
      <Part state={state} retry={retry} what="the last mailing">
        {(mailing) =>
          mailing ? (
            <p data-testid="last-mailing-text">
              <strong>{mailing.subject}</strong>
              <br />
              {formatDate(mailing.createdAt)}: {mailing.status}, {mailing.sent} of {mailing.recipients} sent
              {mailing.failed > 0 && `, ${mailing.failed} failed`}
            </p>
          ) : (
            <p>No mailing sent yet.</p>
          )
        }
      </Part>
      <p>
        <Link to={paths.admin.to('mailer')}>Mailer</Link> · <Link to={paths.admin.to('subscription')}>Subscriptions</Link>
      </p>
    </Card>
  );
}

export default function AdminHome() {
  const showSubscription = useAppSelector(selectShowSubscription);
  // Fixed for the visit, so the parts' calls do not restart on every render.
  const [now] = useState(() => new Date());
  return (
    <section className={styles.screen} aria-labelledby="dashboard-title">
      <h2 id="dashboard-title" className={ui.sectionTitle}>
        Dashboard
      </h2>
      <div className={styles.cards}>
        <TodaysOrders since={startOfDay(now)} />
        <Revenue now={now} />
        <HeldOrders />
        <StockHolds />
        <LowStock />
        <RecentReviews since={startOfDay(now, REVIEW_DAYS - 1)} />
        {showSubscription && <LastMailing />}
      </div>
    </section>
  );
}
