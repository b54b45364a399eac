// The review list: stars, date, name (with the 'Verified' badge only where the reviewer is proven to have
// bought the drink: the back end's `verified`), the comment and an optional picture per review, and a
// 'Report' that tells the shop, with a reason, what is wrong with a review; 'View more comments' while the
// list has a next page.
import { useId, useState, type FormEvent } from 'react';
import { useAppDispatch } from '../../../app/hooks';
import { Field, fieldStyles } from '../../../components/Field';
import ui from '../../../components/ui.module.css';
import { reportReview, type Review } from '../reviewsSlice';
import { reviewDate, reviewImage } from '../display';
import { Stars } from './Stars';
import styles from './Reviews.module.css';

const REASON_MIN = 5;

/** 'Report': a reason, sent to the shop; the thanks (or the refusal) replaces the form. */
function ReportReview({ review }: { review: Review }) {
  const dispatch = useAppDispatch();
  const id = useId();
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const send = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    if (reason.trim().length < REASON_MIN) {
      setError('Say in a few words what is wrong with this review.');
      return;
    }
    setBusy(true);
    const outcome = await dispatch(reportReview(review._id, reason));
    setBusy(false);
    if (outcome.ok) setDone(outcome.message);
    else setError(outcome.message);
  };
  if (done) {
    return (
      <p className={styles.note} role="status">
        {done}
      </p>
    );
  }
  if (!open) {
    return (
      <button type="button" className={styles.linkButton} aria-label={`Report the review by ${review.fullname}`} onClick={() => setOpen(true)}>
        Report
      </button>
    );
  }
  return (
    <form onSubmit={(event) => void send(event)} aria-label={`Report the review by ${review.fullname}`} noValidate>
      <Field
        id={`${id}-reason`}
        label="What is wrong with this review?"
        multiline
        rows={2}
        maxLength={500}
        value={reason}
        onChange={setReason}
        error={error}
      />
      <div className={fieldStyles.actions}>
        <button type="submit" className={ui.secondary} aria-disabled={busy}>
          {busy ? 'Sending…' : 'Send report'}
        </button>
        <button type="button" className={styles.linkButton} onClick={() => setOpen(false)}>
          Cancel
        </button>
      </div>
    </form>
  );
}

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
              <span className={styles.verified} title="Proven to have bought this drink from the shop">
                Verified
              </span>
            </>
          )}
        </p>
        <p className={styles.comment}>{review.comment}</p>
        {image && (
          // eslint-disable-next-line jsx-a11y/img-redundant-alt -- 'Photo from' tells the shopper's own photo apart from the drink's pictures; the announced text stays as it is
          <img className={styles.photo} src={image} alt={`Photo from ${review.fullname}`} loading="lazy" width={240} height={240} />
        )}
        <ReportReview review={review} />
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
