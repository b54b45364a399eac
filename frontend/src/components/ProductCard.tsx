// A drink in a grid: image, name (cut at 30 characters), pack label, rating (where the list carries one) and
// price with its unit price and the delivery terms (when held), linking to its page.
import { paths } from '../app/paths';
import type { DeliveryTerms } from '../lib/delivery';
import { truncate } from '../lib/format';
import { isPrerendering } from '../lib/prerendering';
import type { ListedDrink } from '../types/catalog';
import { CardRating, CardRatingPending } from './CardRating';
import { DrinkImage } from './DrinkImage';
import { Price } from './Price';
import styles from './ProductCard.module.css';
import { Link } from './Link';

interface ProductCardProps {
  product: ListedDrink;
  eager?: boolean;
  /** The delivery terms every order is priced by, named under the price once held. */
  delivery?: DeliveryTerms | null;
}

export function ProductCard({ product, eager = false, delivery = null }: ProductCardProps) {
  // Ratings and stock are live values: the build's copy of a list leaves them out (lib/prerendering.ts).
  const live = !isPrerendering();
  return (
    <article className={styles.card}>
      <div className={styles.media}>
        <DrinkImage className={styles.image} name={product.image[0]} alt="" width={480} height={600} eager={eager} />
      </div>
      <div className={styles.body}>
        <h3 className={styles.name}>
          <Link className={styles.link} to={paths.product.to(product._id)}>
            {truncate(product.name)}
          </Link>
        </h3>
        <p className={styles.pack}>{product.qty}</p>
        {product.totalComments !== undefined && (live ? <CardRating average={product.avgRating ?? 0} count={product.totalComments} /> : <CardRatingPending />)}
        <Price product={product} delivery={delivery} />
      </div>
      {live && product.TheNumber <= 0 && <span className={styles.soldOut}>Sold out</span>}
    </article>
  );
}
