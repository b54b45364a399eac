// A product's price: the discounted price with the old one struck through when a discount applies.
import { formatMoney } from '../lib/format';
import { isPrerendering } from '../lib/prerendering';
import { unitPrice, type Priced } from '../lib/price';
import styles from './Price.module.css';

export function Price({ product, className }: { product: Priced; className?: string }) {
  // The build's copy of a page holds no price (lib/prerendering.ts): the app shows the live one.
  if (isPrerendering()) {
    return (
      <p className={`${styles.price} ${className ?? ''}`} data-pending="price">
        <span className={styles.now}>£…</span>
      </p>
    );
  }
  const now = unitPrice(product);
  const discounted = now < product.price;
  return (
    <p className={`${styles.price} ${className ?? ''}`}>
      {discounted ? (
        <>
          <span className={styles.sale}>
            <span className="visually-hidden">Now </span>
            {formatMoney(now)}
          </span>
          <s className={styles.was}>
            <span className="visually-hidden">was </span>
            {formatMoney(product.price)}
          </s>
          <span className={styles.badge}>{product.discount}% off</span>
        </>
      ) : (
        <span className={styles.now}>{formatMoney(now)}</span>
      )}
    </p>
  );
}
