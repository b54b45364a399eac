// The age line of a drink sold only to adults-to-be: a drink over 150 mg of caffeine a litre carries its
// `minimumAge` (16), and the shop's site info says what the checkout asks (its own age, or no check at all).
// Shown beside the price, before the shopper adds it, so the checkout's date-of-birth question is no surprise.
import type { Product } from '../../../types/catalog';
import styles from './ProductPage.module.css';

interface AgeRestrictionProps {
  product: Pick<Product, 'minimumAge'>;
  /** The site info's age; null when the shop has turned the check off, undefined before it has loaded. */
  shopAge: number | null | undefined;
}

/** The age a buyer of this drink must have at this shop, or null when none is asked. */
export function ageAsked(minimumAge: number | null | undefined, shopAge: number | null | undefined): number | null {
  if (minimumAge === null || minimumAge === undefined || shopAge === null) return null;
  return shopAge ?? minimumAge;
}

export function AgeRestriction({ product, shopAge }: AgeRestrictionProps) {
  const age = ageAsked(product.minimumAge, shopAge);
  if (age === null) return null;
  return (
    <p className={styles.ageLine} data-testid="age-restriction">
      <strong>{age}+</strong> Sold only to buyers aged {age} or over: we ask your date of birth at checkout, and the courier checks
      ID on delivery.
    </p>
  );
}
