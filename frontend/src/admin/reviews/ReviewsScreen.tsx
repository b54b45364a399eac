// /new/uk/reviews: every customer review, newest first, in the shared admin table (sort, filter by text,
// stars or purchase and the day written, 20 a page, CSV): the stars,
// the reviewer's name and e-mail, the drink, whether the reviewer bought it (verified), the date and the
// comment. An admin deletes a review after a
// confirm, or hides it from the shop (and shows it again); the list (and with it the shop's rating summary)
// is then fetched again. Below the table: the reported and the hidden reviews (ReviewModeration).
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { EmptyView, StatusView } from '../../components/StatusView';
import ui from '../../components/ui.module.css';
import { formatDate } from '../../lib/dates';
import { truncate } from '../../lib/format';
import styles from '../adminScreens.module.css';
import { deleteReview, fetchAdminReviewsPage, selectAdminReviews, adminReviewsReloadRequested, type AdminReview } from './adminReviewsSlice';
import { AdminTable } from '../table/AdminTable';
import type { CsvColumn, TableModel } from '../table/tableQuery';
import { useWholeList } from '../table/wholeList';
import { deleteQuestion } from '../confirm';
import { WriteOutcome } from '../WriteOutcome';
import { HideReview, ReviewModeration } from './ReviewModeration';

const shownDate = (review: AdminReview) => (review.Date && Array.from(review.Date.trim()).length > 3 ? review.Date : formatDate(review.createdAt));

/** Which review it is, for the question before deleting it: its stars, its drink and how it starts. */
export const reviewDetail = (review: AdminReview): string =>
  `${review.rating} ${review.rating === 1 ? 'star' : 'stars'} for ${review.productName || review.products}: “${truncate(review.comment, 40)}”`;

function DeleteReview({ review, busy, confirm }: { review: AdminReview; busy: boolean; confirm: (question: string) => boolean }) {
  const dispatch = useAppDispatch();
  return (
    <button
      type="button"
      className={`${ui.secondary} ${styles.small}`}
      aria-disabled={busy}
      aria-label={`Delete the review by ${review.fullname}`}
      onClick={() => {
        if (!busy && confirm(deleteQuestion(`the review by ${review.fullname}`, true, reviewDetail(review)))) void dispatch(deleteReview(review._id));
      }}
    >
      Delete
    </button>
  );
}

const STARS = ['5', '4', '3', '2', '1'];

export const reviewModel: TableModel<AdminReview> = {
  sortBy: {
    rating: (r) => r.rating,
    name: (r) => r.fullname,
    email: (r) => r.email,
    drink: (r) => r.productName || r.products,
    verified: (r) => (r.verified ? 0 : 1),
    date: (r) => r.createdAt,
  },
  text: (r) => [r.fullname, r.email, r.productName, r.comment],
  status: (r) => [`${r.rating}`, r.verified ? 'verified' : 'unverified'],
  date: (r) => r.createdAt,
};

export const reviewCsv: readonly CsvColumn<AdminReview>[] = [
  { label: 'Date', value: (r) => r.createdAt },
  { label: 'Rating', value: (r) => r.rating },
  { label: 'Name', value: (r) => r.fullname },
  { label: 'E-mail', value: (r) => r.email },
  { label: 'Drink', value: (r) => r.productName || r.products },
  { label: 'Verified buyer', value: (r) => (r.verified ? 'yes' : 'no') },
  { label: 'Comment', value: (r) => r.comment },
];

export default function ReviewsScreen({ confirm = (question: string) => window.confirm(question) }: { confirm?: (question: string) => boolean }) {
  const dispatch = useAppDispatch();
  const { products: reviews, status, error, reload, nextPage, busy, actionError } = useAppSelector(selectAdminReviews);


  // Every visit loads the whole list; a retry, or a delete, loads it again.
  useWholeList({ status, nextPage, reload }, fetchAdminReviewsPage, selectAdminReviews);

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
        <AdminTable
          rows={reviews}
          model={reviewModel}
          columns={[
            {
              key: 'rating',
              label: 'Rating',
              cell: (review) => (
                <>
                  <span aria-hidden="true">{'★'.repeat(review.rating)}</span>
                  <span className="visually-hidden">{review.rating} out of 5 stars</span>
                </>
              ),
            },
            { key: 'name', label: 'Name', rowHeader: true, cell: (review) => review.fullname },
            { key: 'email', label: 'E-mail', cell: (review) => review.email },
            { key: 'drink', label: 'Drink', cell: (review) => review.productName || review.products },
            { key: 'verified', label: 'Bought it', cell: (review) => (review.verified ? 'Verified buyer' : 'Not proven') },
            { key: 'date', label: 'Date', cell: (review) => <time dateTime={review.createdAt}>{shownDate(review)}</time> },
            { key: 'comment', label: 'Comment', cell: (review) => review.comment },
            {
              key: 'actions',
              label: 'Actions',
              hiddenLabel: true,
              cell: (review) => (
                <>
                  <HideReview review={review} /> <DeleteReview review={review} busy={busy.includes(review._id)} confirm={confirm} />
                </>
              ),
            },
          ]}
          rowKey={(review) => review._id}
          filters={{
            text: 'Search by name, e-mail, drink or comment',
            status: {
              label: 'Stars or purchase',
              options: [
                ...STARS.map((n) => ({ value: n, label: `${n} stars` })),
                { value: 'verified', label: 'Verified buyer' },
                { value: 'unverified', label: 'Not proven' },
              ],
            },
            date: 'Written',
          }}
          csv={{ fileName: 'reviews.csv', columns: reviewCsv }}
          noun="reviews"
          caption="Reviews"
          testId="admin-reviews"
          rowTestId="admin-review"
          loadingMore={status === 'loading'}
        />
      </StatusView>
      <ReviewModeration />
    </section>
  );
}
