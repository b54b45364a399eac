// The summary at the top of the reviews page: the average out of 5, 'Based on N reviews', and one bar per
// star count, 5 stars first, each as wide as its share of the reviews.
import type { RatingSummary, Star } from '../reviewsSlice';
import { basedOn } from '../display';
import { Stars } from './Stars';
import styles from './Reviews.module.css';

const STARS: Star[] = ['5', '4', '3', '2', '1'];

export function RatingOverview({ ratings, count }: { ratings: RatingSummary; count: number }) {
  const average = Number.isFinite(ratings.avgRating) ? ratings.avgRating : 0;
  return (
    <div className={styles.overview} data-testid="rating-overview">
      <div className={styles.average}>
        <p className={styles.averageFigure}>
          <strong data-testid="average-rating">{average.toFixed(1)}</strong> <span>out of 5</span>
        </p>
        <Stars rating={average} label={`Average rating: ${average.toFixed(1)} out of 5 stars`} large />
        <p className={styles.basedOn}>{basedOn(count)}</p>
      </div>
      <ul className={styles.bars} aria-label="Reviews by stars">
        {STARS.map((star) => {
          const n = ratings[star] ?? 0;
          const share = count > 0 ? Math.round((n / count) * 100) : 0;
          return (
            <li key={star} className={styles.barRow} data-testid="rating-bar">
              <span className={styles.barLabel}>
                {star} <span aria-hidden="true">★</span>
                <span className="visually-hidden">{star === '1' ? ' star' : ' stars'}</span>
              </span>
              <span className={styles.bar} aria-hidden="true">
                <span className={styles.barFill} style={{ width: `${share}%` }} />
              </span>
              <span className={styles.barCount}>
                {n}
                <span className="visually-hidden"> {n === 1 ? 'review' : 'reviews'}</span>
              </span>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
