// The review list: stars, date, name (with the 'Verified' badge only where the reviewer bought the drink:
// the back end's `verified`), the comment and an optional picture per review; 'View more comments' while
// the list has a next page.
import type { Review } from '../reviewsSlice';
import { reviewDate, reviewImage } from '../display';
import { Stars } from './Stars';
import styles from './Reviews.module.css';

export function ReviewItem({ review }: { review: Review }) {
  const image = reviewImage(review);
  return (
    <li className={styles.review} data-testid="review">
      <article aria-label={`Review by ${review.fullname}`}>
        <div className={styles.reviewHead}>
          <Stars rating={review.rating} />
          <time className={styles.date} dateTime={review.createdAt}>
            {reviewDate(review)}
          </time>
        </div>
        <p className={styles.author}>
          <span>{review.fullname}</span>
          {review.verified && (
            <>
              {' '}
              <span className={styles.verified} title="Bought this drink from the shop before reviewing it">
                Verified
              </span>
            </>
          )}
        </p>
        <p className={styles.comment}>{review.comment}</p>
        {image && (
          <img className={styles.photo} src={image} alt={`Photo from ${review.fullname}`} loading="lazy" width={240} height={240} />
        )}
      </article>
    </li>
  );
}

export function ReviewList({ reviews }: { reviews: Review[] }) {
  return (
    <ul className={styles.list} data-testid="review-list">
      {reviews.map((review) => (
        <ReviewItem key={review._id} review={review} />
      ))}
    </ul>
  );
}
