// Under the reviews table: the reviews shoppers reported, with their reasons (hide one, or keep it shown and
// settle its reports), and the hidden reviews (show one again). Each action reloads both lists and the table.
import { useCallback, useEffect, useState } from 'react';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import ui from '../../components/ui.module.css';
import { formatDate } from '../../lib/dates';
import styles from '../adminScreens.module.css';
import {
  fetchHiddenReviews,
  fetchReportedReviews,
  moderateReview,
  selectAdminReviews,
  type AdminReview,
  type ReportedReview,
} from './adminReviewsSlice';

function Action({ review, action, label }: { review: AdminReview; action: 'hide' | 'unhide'; label: string }) {
  const dispatch = useAppDispatch();
  const { busy } = useAppSelector(selectAdminReviews);
  return (
    <button
      type="button"
      className={`${ui.secondary} ${styles.small}`}
      aria-disabled={busy.includes(review._id)}
      aria-label={`${label}: the review by ${review.fullname}`}
      onClick={() => {
        if (!busy.includes(review._id)) void dispatch(moderateReview(review._id, action));
      }}
    >
      {label}
    </button>
  );
}

/** The Hide button of a shown review in the table. */
export function HideReview({ review }: { review: AdminReview }) {
  return <Action review={review} action="hide" label="Hide" />;
}

export function ReviewModeration() {
  const dispatch = useAppDispatch();
  const { reload } = useAppSelector(selectAdminReviews);
  const [reported, setReported] = useState<ReportedReview[] | string | null>(null);
  const [hidden, setHidden] = useState<AdminReview[] | string | null>(null);
  const load = useCallback(async () => {
    const [reports, hiddenOnes] = await Promise.all([dispatch(fetchReportedReviews()), dispatch(fetchHiddenReviews())]);
    setReported(reports);
    setHidden(hiddenOnes);
  }, [dispatch]);
  useEffect(() => {
    void load();
  }, [load, reload]);

  return (
    <>
      <section aria-labelledby="reported-title" data-testid="reported-reviews">
        <h3 id="reported-title" className={ui.sectionTitle}>
          Reported by shoppers
        </h3>
        {typeof reported === 'string' && <p role="alert">{reported}</p>}
        {Array.isArray(reported) && reported.length === 0 && <p>No review is waiting for a decision.</p>}
        {Array.isArray(reported) && reported.length > 0 && (
          <ul>
            {reported.map(({ review, reports, reasons, lastReportedAt }) => (
              <li key={review._id} data-testid="reported-review">
                <p>
                  <strong>{review.fullname}</strong> on {review.productName || review.products}: “{review.comment}”
                </p>
                <p>
                  {reports === 1 ? '1 report' : `${reports} reports`}, the last {formatDate(lastReportedAt)}:
                </p>
                <ul>
                  {reasons.map((reason) => (
                    <li key={reason}>{reason.replace(/^\S+ /, '')}</li>
                  ))}
                </ul>
                <Action review={review} action="hide" label="Hide" /> <Action review={review} action="unhide" label="Keep shown" />
              </li>
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="hidden-title" data-testid="hidden-reviews">
        <h3 id="hidden-title" className={ui.sectionTitle}>
          Hidden reviews
        </h3>
        {typeof hidden === 'string' && <p role="alert">{hidden}</p>}
        {Array.isArray(hidden) && hidden.length === 0 && <p>No review is hidden.</p>}
        {Array.isArray(hidden) && hidden.length > 0 && (
          <ul>
            {hidden.map((review) => (
              <li key={review._id} data-testid="hidden-review">
                <strong>{review.fullname}</strong> on {review.productName || review.products}: “{review.comment}”{' '}
                <Action review={review} action="unhide" label="Show again" />
              </li>
            ))}
          </ul>
        )}
      </section>
    </>
  );
}
