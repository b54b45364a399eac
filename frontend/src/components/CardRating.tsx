// A drink's rating on its card: five stars and the average with the number of reviews, read out as
// '4.5 out of 5, 12 reviews'. A drink nobody has reviewed says so rather than showing empty stars.
import styles from './CardRating.module.css';

/** '4.5 out of 5, 12 reviews', '5 out of 5, 1 review'. */
export function ratingText(average: number, count: number): string {
  return `${average} out of 5, ${count} ${count === 1 ? 'review' : 'reviews'}`;
}

/** The line's place in the build's copy of a list, which holds no ratings (lib/prerendering.ts). */
export function CardRatingPending() {
  return (
    <p className={styles.none} data-pending="rating" aria-hidden="true">
      &nbsp;
    </p>
  );
}

export function CardRating({ average, count }: { average: number; count: number }) {
  if (count <= 0) return <p className={styles.none}>No reviews yet</p>;
  // Whole stars to the nearer half-up; the words carry the exact average.
  const filled = Math.min(5, Math.max(0, Math.floor(average + 0.5)));
  return (
    <p className={styles.rating} data-testid="card-rating">
      <span aria-hidden="true" className={styles.stars}>
        {[1, 2, 3, 4, 5].map((n) => (
          <span key={n} className={n <= filled ? styles.on : styles.off}>
            {n <= filled ? '★' : '☆'}
          </span>
        ))}
      </span>
      <span aria-hidden="true" className={styles.figures}>
        {average.toFixed(1)} ({count})
      </span>
      <span className="visually-hidden">{ratingText(average, count)}</span>
    </p>
  );
}
