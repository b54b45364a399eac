// /new/uk/: the dashboard. This month's orders, units and takings beside last month's (from the sales
// counters), and the drinks running low (10 units or fewer, sold out first) with a way to the products
// screen. Each part loads, fails with a retry, or says it is empty on its own.
import { useEffect } from 'react';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { paths } from '../../app/paths';
import { StatusView } from '../../components/StatusView';
import ui from '../../components/ui.module.css';
import { formatMoney } from '../../lib/format';
import styles from '../adminScreens.module.css';
import { adminProductsReloadRequested, fetchAdminProducts, selectAdminProducts } from '../products/adminProductsSlice';
import { fetchResults, resultsReloadRequested, selectResults, type MonthResult } from '../results/resultsSlice';
import { Link } from '../../components/Link';

/** Units at or below which a drink counts as running low. */
export const LOW_STOCK = 10;

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
      totalVat: 0,
    }
  );
}

export default function AdminHome() {
  const dispatch = useAppDispatch();
  const sales = useAppSelector(selectResults);
  const drinks = useAppSelector(selectAdminProducts);

  useEffect(() => {
    if (sales.status === 'idle' || sales.reload) void dispatch(fetchResults());
  }, [dispatch, sales.status, sales.reload]);
  useEffect(() => {
    if (drinks.status === 'idle' || drinks.reload) void dispatch(fetchAdminProducts());
  }, [dispatch, drinks.status, drinks.reload]);

  const now = new Date();
  const thisMonth = monthOf(sales.results, now);
  const lastMonth = monthOf(sales.results, now, 1);
  const low = drinks.products.filter((p) => p.TheNumber <= LOW_STOCK).sort((a, b) => a.TheNumber - b.TheNumber);

  return (
    <section className={styles.screen} aria-labelledby="dashboard-title">
      <h2 id="dashboard-title" className={ui.sectionTitle}>
        Dashboard
      </h2>

      <section aria-labelledby="month-title">
        <h3 id="month-title">This month</h3>
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
              <dt>Orders</dt>
              <dd>{thisMonth.totalOrders}</dd>
              <dd className={styles.was}>last month {lastMonth.totalOrders}</dd>
            </div>
            <div>
              <dt>Units sold</dt>
              <dd>{thisMonth.totalProductsSold}</dd>
              <dd className={styles.was}>last month {lastMonth.totalProductsSold}</dd>
            </div>
            <div>
              <dt>Takings</dt>
              <dd>{formatMoney(thisMonth.totalPayments)}</dd>
              <dd className={styles.was}>last month {formatMoney(lastMonth.totalPayments)}</dd>
            </div>
          </dl>
          <p>
            <Link to={paths.admin.to('result')}>All months</Link> · <Link to={paths.admin.to('order')}>Orders</Link>
          </p>
        </StatusView>
      </section>

      <section aria-labelledby="stock-title">
        <h3 id="stock-title">Running low</h3>
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
          <p>
            <Link to={paths.admin.to('products')}>Restock on the products screen</Link>
          </p>
        </StatusView>
      </section>
    </section>
  );
}
