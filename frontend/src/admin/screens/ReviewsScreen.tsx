// /new/uk/reviews: every customer review, newest first, 20 at a time with 'Load more reviews': the stars,
// the reviewer's name and e-mail, the drink, whether the reviewer bought it (verified), the date and the
// comment. An admin deletes a review after a
// confirm; the list (and with it the shop's rating summary) is then fetched again.
import { useEffect } from 'react';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { EmptyView, StatusView } from '../../components/StatusView';
import ui from '../../components/ui.module.css';
import { formatDate } from '../../lib/dates';
import { usePageMeta } from '../../lib/meta';
import { FIRST_PAGE } from '../../lib/paging';
import styles from '../adminScreens.module.css';
import { deleteReview, fetchAdminReviewsPage, selectAdminReviews, adminReviewsReloadRequested, type AdminReview } from '../reviews/adminReviewsSlice';
import { LoadMore } from '../../components/LoadMore';
import { WriteOutcome } from '../WriteOutcome';

interface ReviewRowProps {
  review: AdminReview;
  busy: boolean;
  confirm: (question: string) => boolean;
}

function ReviewRow({ review, busy, confirm }: ReviewRowProps) {
  const dispatch = useAppDispatch();
  const date = review.Date && Array.from(review.Date.trim()).length > 3 ? review.Date : formatDate(review.createdAt);
  return (
    <tr data-testid="admin-review">
      <td>
        <span aria-hidden="true">{'★'.repeat(review.rating)}</span>
        <span className="visually-hidden">{review.rating} out of 5 stars</span>
      </td>
      <th scope="row">{review.fullname}</th>
      <td>{review.email}</td>
      <td>{review.productName || review.products}</td>
      <td>{review.verified ? 'Verified buyer' : 'No order found'}</td>
      <td>
        <time dateTime={review.createdAt}>{date}</time>
      </td>
      <td>{review.comment}</td>
      <td>
        <button
          type="button"
          className={`${ui.secondary} ${styles.small}`}
          aria-disabled={busy}
          aria-label={`Delete the review by ${review.fullname}`}
          onClick={() => {
            if (!busy && confirm(`Delete the review by ${review.fullname}? This cannot be undone.`)) void dispatch(deleteReview(review._id));
          }}
        >
          Delete
        </button>
      </td>
    </tr>
  );
}

export default function ReviewsScreen({ confirm = (question: string) => window.confirm(question) }: { confirm?: (question: string) => boolean }) {
  const dispatch = useAppDispatch();
  const { products: reviews, status, error, reload, nextPage, busy, actionError } = useAppSelector(selectAdminReviews);

  usePageMeta('Reviews', 'Shop admin: customer reviews.');

  // Every visit starts at page 1; a retry, or a delete, fetches page 1 again.
  useEffect(() => {
    void dispatch(fetchAdminReviewsPage(FIRST_PAGE));
  }, [dispatch]);
  useEffect(() => {
    if (reload) void dispatch(fetchAdminReviewsPage(FIRST_PAGE));
  }, [dispatch, reload]);

  const loadingMore = status === 'loading' && reviews.length > 0;

  return (
    <section className={styles.screen} aria-labelledby="reviews-title">
      <h2 id="reviews-title" className={ui.sectionTitle}>
        Reviews
      </h2>
      <WriteOutcome error={actionError} />
      <StatusView
        status={status}
        error={error}
        onRetry={() => dispatch(adminReviewsReloadRequested())}
        isEmpty={reviews.length === 0}
        loadingLabel="Loading reviews"
        errorTitle="We could not load the reviews"
        empty={<EmptyView title="No reviews yet" />}
      >
        <div className={styles.tableWrap}>
          <table className={styles.table} data-testid="admin-reviews">
            <thead>
              <tr>
                <th scope="col">Rating</th>
                <th scope="col">Name</th>
                <th scope="col">E-mail</th>
                <th scope="col">Drink</th>
                <th scope="col">Bought it</th>
                <th scope="col">Date</th>
                <th scope="col">Comment</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {reviews.map((review) => (
                <ReviewRow key={review._id} review={review} busy={busy.includes(review._id)} confirm={confirm} />
              ))}
            </tbody>
          </table>
        </div>
        <LoadMore nextPage={nextPage} loading={loadingMore} failed={status === 'failed'} label="Load more reviews" onLoad={(page) => void dispatch(fetchAdminReviewsPage(page))} />
      </StatusView>
    </section>
  );
}
