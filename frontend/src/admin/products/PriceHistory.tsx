// The drink form's price history: every recorded change of its price, discount and promotion days, newest
// first, and whether the shop may show a "was" price now, with the server's reason either way (a "was" price
// must have been charged for 28 days within the last six months, right before the reduction).
import { useCallback } from 'react';
import { formatDate } from '../../lib/dates';
import { formatMoney } from '../../lib/format';
import { Part, useCall } from '../useCall';
import styles from '../adminScreens.module.css';
import { fetchPriceRecord } from './adminProductsSlice';

export function PriceHistory({ id }: { id: string }) {
  const call = useCallback(() => fetchPriceRecord(id), [id]);
  const [state, retry] = useCall(call);
  return (
    <section aria-labelledby="price-history-title" data-testid="price-history">
      <h4 id="price-history-title">Price history</h4>
      <Part state={state} retry={retry} what="the price history">
        {(record) => (
          <>
            <p role="status" data-testid="was-price-reason">
              {record.wasPrice != null ? `Shown as "was ${formatMoney(record.wasPrice)}". ` : 'No "was" price is shown. '}
              {record.reason}
            </p>
            <table className={styles.table}>
              <caption className="visually-hidden">Recorded prices, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">From</th>
                  <th scope="col">Price</th>
                  <th scope="col">Discount</th>
                  <th scope="col">Promotion days</th>
                </tr>
              </thead>
              <tbody>
                {record.history.map((change) => (
                  <tr key={change.at}>
                    <td>{formatDate(change.at)}</td>
                    <td>{formatMoney(change.price)}</td>
                    <td>{change.discount > 0 ? `${change.discount}% off` : 'none'}</td>
                    <td>
                      {change.discount > 0
                        ? `${change.promotionStart ? formatDate(change.promotionStart) : 'from the start'} to ${change.promotionEnd ? formatDate(change.promotionEnd) : 'until changed'}`
                        : ''}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </>
        )}
      </Part>
    </section>
  );
}
