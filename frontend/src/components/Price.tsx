// A drink's price as an invitation to purchase shows it: the price paid now, the "was" price only where the
// server found it genuine (`wasPrice`: sold at it for 28 days or more within the last six months, right
// before the reduction), the price of a litre from the pack size (`pricePerLitre`), and the delivery charge
// with its free-delivery threshold, so nothing is added later that the shopper was not told (DMCC Act 2024).
import { deliveryLine, type DeliveryTerms } from '../lib/delivery';
import { formatMoney } from '../lib/format';
import { isPrerendering } from '../lib/prerendering';
import { unitPrice, type Priced } from '../lib/price';
import styles from './Price.module.css';

interface PriceProps {
  product: Priced;
  className?: string;
  /** The delivery terms, when held: named under the price. */
  delivery?: DeliveryTerms | null;
}

/** The reduction from the genuine earlier price, in whole per cent (rounded down: never overstated). */
export function percentOff(was: number, now: number): number {
  if (was <= 0 || now >= was) return 0;
  return Math.floor(((was - now) / was) * 100 + 1e-9);
}

export function Price({ product, className, delivery = null }: PriceProps) {
  // The build's copy of a page holds no price, unit price or was price (lib/prerendering.ts): the app shows
  // the live ones, in the places kept here at the same height.
  if (isPrerendering()) {
    return (
      <div className={`${styles.block} ${className ?? ''}`} data-pending="price">
        <p className={styles.price}>
          <span className={styles.now}>£…</span>
        </p>
        <p className={styles.unit}>&nbsp;</p>
        <p className={styles.delivery}>&nbsp;</p>
      </div>
    );
  }
  const now = unitPrice(product);
  const was = typeof product.wasPrice === 'number' && product.wasPrice > now ? product.wasPrice : null;
  const off = was === null ? 0 : percentOff(was, now);
  return (
    <div className={`${styles.block} ${className ?? ''}`}>
      <p className={styles.price}>
        {was !== null ? (
          <>
            <span className={styles.sale}>
              <span className="visually-hidden">Now </span>
              {formatMoney(now)}
            </span>
            <s className={styles.was}>
              <span className="visually-hidden">was </span>
              {formatMoney(was)}
            </s>
            {off > 0 && <span className={styles.badge}>{off}% off</span>}
          </>
        ) : (
          <span className={styles.now}>{formatMoney(now)}</span>
        )}
      </p>
      {typeof product.pricePerLitre === 'number' && <p className={styles.unit}>{formatMoney(product.pricePerLitre)} per litre</p>}
      {delivery && (
        <p className={styles.delivery} data-testid="delivery-line">
          {deliveryLine(delivery)}
        </p>
      )}
    </div>
  );
}
