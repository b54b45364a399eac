// Stars as a picture with words: five glyphs, the first `rating` filled (a half rounds to the nearer star)
// and the rest outlined (shape as well as colour tells them apart, and an empty one keeps 3:1 contrast),
// read out as '4 out of 5 stars'.
import { starsLabel } from '../display';
import styles from './Reviews.module.css';

export function Stars({ rating, label = starsLabel(rating), large = false }: { rating: number; label?: string; large?: boolean }) {
  const filled = Math.round(rating);
  return (
    <span role="img" aria-label={label} className={large ? `${styles.stars} ${styles.starsLarge}` : styles.stars}>
      {[1, 2, 3, 4, 5].map((n) => (
        <span key={n} aria-hidden="true" className={n <= filled ? styles.starOn : styles.starOff}>
          {n <= filled ? '★' : '☆'}
        </span>
      ))}
    </span>
  );
}
