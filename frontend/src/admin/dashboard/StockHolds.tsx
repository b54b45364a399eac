// The dashboard's "Held by unpaid orders": what orders waiting for their bank's 3-D Secure step hold of each
// drink, beside the most they may hold (the cap: half the drink, at least 6) and what is on sale, with the
// orders holding it. A drink at its cap refuses further 3-D Secure orders for a few minutes, so this is where
// an admin sees why, and by whom (docs/operations.md says what to do).
import { Link } from '../../components/Link';
import { paths } from '../../app/paths';
import { formatDateTime } from '../../lib/dates';
import styles from '../adminScreens.module.css';
import { TableScroll } from '../table/TableScroll';
import { Part, useCall } from '../useCall';
import { fetchStockHolds, type StockHold } from './dashboardData';

export function StockHoldsTable({ holds }: { holds: StockHold[] }) {
  if (holds.length === 0) return <p>Nothing is held by unpaid orders.</p>;
  return (
    <TableScroll label="Units held by unpaid orders">
      <table className={styles.table} data-testid="stock-holds-table">
        <caption>Units held by unpaid orders waiting for 3-D Secure, per drink</caption>
        <thead>
          <tr>
            <th scope="col">Drink</th>
            <th scope="col">Held / cap</th>
            <th scope="col">Stock</th>
            <th scope="col">Orders</th>
          </tr>
        </thead>
        <tbody>
          {holds.map((hold) => (
            <tr key={hold._id}>
              <th scope="row">{hold.name}</th>
              <td>
                {hold.held} / {hold.cap}
              </td>
              <td>{hold.stock}</td>
              <td>
                {hold.orders.length === 0 ? (
                  'No pending order: the count is given back as orders move on'
                ) : (
                  <ul className={styles.recent}>
                    {hold.orders.map((order) => (
                      <li key={order._id}>
                        <Link to={paths.admin.to(`order/${encodeURIComponent(order._id)}`)}>{order.number}</Link> {order.email}: {order.units}{' '}
                        {order.units === 1 ? 'unit' : 'units'}, hold until {formatDateTime(order.holdUntil)}
                      </li>
                    ))}
                  </ul>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}

export function StockHolds() {
  const [state, retry] = useCall(fetchStockHolds);
  return (
    <section className={styles.card} aria-labelledby="stock-holds" data-testid="stock-holds">
      <h3 id="stock-holds">Held by unpaid orders</h3>
      <Part state={state} retry={retry} what="what unpaid orders hold">
        {(holds) => <StockHoldsTable holds={holds} />}
      </Part>
    </section>
  );
}
