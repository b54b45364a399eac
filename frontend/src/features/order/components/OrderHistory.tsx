// The logged-in customer's orders, newest first, 10 a page with 'Load more', and what they have spent.
import { useEffect } from 'react';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { paths } from '../../../app/paths';
import { StatusView } from '../../../components/StatusView';
import ui from '../../../components/ui.module.css';
import { FIRST_PAGE } from '../../../lib/paging';
import { formatDate } from '../../../lib/dates';
import { countOf, formatMoney } from '../../../lib/format';
import { fetchOrderHistoryPage, fetchOrderTotals, historyReloadRequested, selectOrderHistory } from '../orderSlice';
import { orderReference } from '../../../lib/orderTypes';
import styles from './Order.module.css';
import { Link } from '../../../components/Link';

export function OrderHistory() {
  const dispatch = useAppDispatch();
  const history = useAppSelector(selectOrderHistory);

  useEffect(() => {
    void dispatch(fetchOrderHistoryPage(FIRST_PAGE));
    void dispatch(fetchOrderTotals());
  }, [dispatch]);
  useEffect(() => {
    if (history.reload) void dispatch(fetchOrderHistoryPage(FIRST_PAGE));
  }, [dispatch, history.reload]);

  return (
    <section className={styles.panel} aria-labelledby="history-title">
      <h2 id="history-title" className={ui.sectionTitle}>
        Your orders
      </h2>
      {history.totals && (
        <dl className={styles.stats} data-testid="order-totals">
          <div>
            <dt>Orders</dt>
            <dd>{history.totals.totalOrders}</dd>
          </div>
          <div>
            <dt>Spent</dt>
            <dd>{formatMoney(history.totals.totalPayments)}</dd>
          </div>
        </dl>
      )}
      <StatusView
        status={history.status}
        error={history.error}
        onRetry={() => dispatch(historyReloadRequested())}
        isEmpty={history.products.length === 0}
        loadingLabel="Loading your orders"
        errorTitle="We could not load your orders"
        empty={
          <p>
            <strong>No orders yet</strong>. When you order drinks, they show here with their status.{' '}
            <Link to={paths.shop.to()}>Shop drinks</Link>
          </p>
        }
      >
        <ul className={styles.list} data-testid="order-history">
          {history.products.map((order) => (
            <li key={order._id} className={styles.item}>
              <Link to={paths.order.to(order._id)}>Order {orderReference(order)}</Link>
              <span>{formatDate(order.createdAt)}</span>
              <span>
                {countOf(order.product.reduce((n, line) => n + line.qty, 0), 'item')}
              </span>
              <span className={styles.status}>{order.status}</span>
              <strong>{formatMoney(order.total)}</strong>
            </li>
          ))}
        </ul>
        {history.nextPage !== null && (
          <button
            type="button"
            className={ui.secondary}
            disabled={history.status === 'loading'}
            onClick={() => history.nextPage !== null && void dispatch(fetchOrderHistoryPage(history.nextPage))}
          >
            Load more
          </button>
        )}
      </StatusView>
    </section>
  );
}
