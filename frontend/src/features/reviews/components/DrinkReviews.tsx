// One drink's reviews on its product page (spec section 7: GET /api/home_uk/palestine/comment/reviews with
// `ProductsId`): the average and count (the summary narrowed to the drink), the list newest first with 'View
// more comments' while there are more, and 'Write a review' opening the form for this drink. The product page
// loads this below the fold, lazily (app/routes/ProductRoute.tsx), so its first render does not wait for it.
import { useEffect, useId, useState } from 'react';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { LoadMore } from '../../../components/LoadMore';
import { EmptyView, ErrorView, LoadingView } from '../../../components/StatusView';
import ui from '../../../components/ui.module.css';
import { FIRST_PAGE } from '../../../lib/paging';
import {
  drinkReviewsReloadRequested,
  fetchDrinkReviewsPage,
  fetchDrinkSummary,
  reviewFormReset,
  selectDrinkReviews,
  type DrinkOption,
} from '../reviewsSlice';
import { RatingOverview } from './RatingOverview';
import { ReviewForm } from './ReviewForm';
import { ReviewList } from './ReviewList';
import styles from './Reviews.module.css';

export default function DrinkReviews({ drink }: { drink: DrinkOption }) {
  const dispatch = useAppDispatch();
  const held = useAppSelector(selectDrinkReviews);
  const id = useId();
  const [formOpen, setFormOpen] = useState(false);
  const productId = drink._id;
  // Another drink's reviews may still be held: show nothing of them.
  const mine = held.productId === productId;
  const { summary, list } = held;

  // Each visit to a drink fetches afresh; the reload flag (a retry, a stored review) fetches again.
  useEffect(() => {
    void dispatch(fetchDrinkSummary(productId));
    void dispatch(fetchDrinkReviewsPage({ productId, page: FIRST_PAGE, cursor: null }));
    return () => void dispatch(reviewFormReset());
  }, [dispatch, productId]);
  useEffect(() => {
    if (mine && summary.reload) {
      void dispatch(fetchDrinkSummary(productId));
      void dispatch(fetchDrinkReviewsPage({ productId, page: FIRST_PAGE, cursor: null }));
    }
  }, [dispatch, mine, summary.reload, productId]);

  const loadingMore = mine && list.status === 'loading' && list.products.length > 0;

  return (
    <section className={styles.drinkReviews} aria-labelledby={`${id}-title`} data-testid="drink-reviews">
      <h2 id={`${id}-title`} className={ui.sectionTitle}>
        Reviews of {drink.name}
      </h2>
      <div className={styles.summary}>
        {mine && summary.status === 'failed' ? (
          <ErrorView
            title="We could not load the reviews"
            message={summary.error ?? 'Try later'}
            onRetry={() => dispatch(drinkReviewsReloadRequested())}
          />
        ) : mine && summary.ratings ? (
          <RatingOverview ratings={summary.ratings} count={summary.count} />
        ) : (
          <LoadingView label="Loading the ratings" cards={1} />
        )}
        <div className={styles.write}>
          <button
            type="button"
            className={ui.accent}
            aria-expanded={formOpen}
            aria-controls={`${id}-form`}
            onClick={() => setFormOpen((open) => !open)}
          >
            Write a review
          </button>
        </div>
      </div>

      <div id={`${id}-form`} hidden={!formOpen}>
        {formOpen && <ReviewForm drink={drink} />}
      </div>

      {!mine || (list.status === 'loading' && list.products.length === 0) || list.status === 'idle' ? (
        <LoadingView label="Loading the reviews" cards={2} />
      ) : list.products.length === 0 && list.status === 'failed' ? (
        <ErrorView
          title="We could not load the reviews"
          message={list.error ?? 'Try later'}
          onRetry={() => dispatch(drinkReviewsReloadRequested())}
        />
      ) : list.products.length === 0 ? (
        <EmptyView title="No reviews yet">
          <p>Tried {drink.name}? Be the first to tell everyone what you thought.</p>
        </EmptyView>
      ) : (
        <>
          <ReviewList reviews={list.products} />
          {list.status === 'failed' && (
            <ErrorView
              title="We could not load more reviews"
              message={list.error ?? 'Try later'}
              onRetry={() => list.nextPage !== null && void dispatch(fetchDrinkReviewsPage({ productId, page: list.nextPage, cursor: list.cursor }))}
            />
          )}
          <LoadMore
            nextPage={list.nextPage}
            loading={loadingMore}
            failed={list.status === 'failed'}
            label="View more comments"
            onLoad={(page) => void dispatch(fetchDrinkReviewsPage({ productId, page, cursor: list.cursor }))}
          />
        </>
      )}
    </section>
  );
}
