// The customer reviews page's data (docs/api.md, Reviews). The summary (GET /api/home/uk/review/) brings the
// ratings, the count, the site info and the first page of reviews in one call; 'View more comments' appends
// the next pages (GET /api/home_uk/palestine/comment/reviews?pageNumber=n); the form's drinks come from
// GET /api/product/; a review is sent with POST /api/reviews/create/, after which the reload flag is set and
// the summary and list are fetched again. Injected with the reviews page's chunk: the home page never
// carries it.
import { createSlice, type PayloadAction, type WithSlice } from '@reduxjs/toolkit';
import { rootReducer } from '../../app/rootReducer';
import { errorMessage } from '../../lib/api';
import { FIRST_PAGE, initialPagedList, receivePage, startPage, type Paged, type PagedList } from '../../lib/paging';
import { createLoader, initialLoadable, type AppThunk, type Failed, type Loadable, type Received } from '../../lib/thunk';
import type { Product, SiteInfo } from '../../types/catalog';

/** A review as the public list answers it: never the reviewer's e-mail. */
export interface Review {
  _id: string;
  /** 1 to 5 stars. */
  rating: number;
  /** Free text kept as the writer's client sent it; shown when longer than 3 characters. */
  Date?: string;
  /** ISO 8601 UTC. */
  createdAt: string;
  fullname: string;
  comment: string;
  /** An upload name; shown when longer than 4 characters. */
  image?: string;
  /** The drink's id. */
  products: string;
}

export type Star = '1' | '2' | '3' | '4' | '5';

/** Counts by star, the average (one decimal) and the number of reviews. */
export type RatingSummary = Record<Star, number> & { avgRating: number; totalComments: number };

/** GET /api/home/uk/review/. */
export interface ReviewSummaryPayload {
  connect: SiteInfo | null;
  ratings: RatingSummary;
  Thecount: number;
  comment: Paged<Review>;
}

/** What the form sends (POST /api/reviews/create/). */
export interface ReviewForm {
  rating: number;
  comment: string;
  fullname: string;
  email: string;
  products: string;
}

export interface DrinkOption {
  _id: string;
  name: string;
}

export interface ReviewsState {
  summary: Loadable & { ratings: RatingSummary | null; count: number; connect: SiteInfo | null };
  /** The reviews shown, page 1 from the summary and the next pages appended; `status` is the pages'. */
  list: Loadable & PagedList<Review>;
  drinks: Loadable & { items: DrinkOption[] };
  /** The form's sending: the spec sets the reload flag when a review was stored. */
  form: Loadable;
}

export const initialReviewsState: ReviewsState = {
  summary: { ...initialLoadable, ratings: null, count: 0, connect: null },
  list: { ...initialLoadable, ...initialPagedList<Review>() },
  drinks: { ...initialLoadable, items: [] },
  form: initialLoadable,
};

const reviewsSlice = createSlice({
  name: 'reviews',
  initialState: initialReviewsState,
  reducers: {
    reviewSummaryRequested(state, _action: PayloadAction<void>) {
      state.summary.status = 'loading';
      state.summary.error = null;
      state.summary.reload = false;
    },
    reviewSummaryReceived(state, action: PayloadAction<Received<void, ReviewSummaryPayload>>) {
      const { ratings, Thecount, connect, comment } = action.payload.result ?? ({} as Partial<ReviewSummaryPayload>);
      state.summary.status = 'loaded';
      state.summary.ratings = ratings ?? null;
      state.summary.count = Thecount ?? ratings?.totalComments ?? 0;
      state.summary.connect = connect ?? null;
      // The summary carries the first page: the list starts (again) from it.
      state.list.status = 'loaded';
      state.list.error = null;
      receivePage(state.list, FIRST_PAGE, comment);
    },
    reviewSummaryFailed(state, action: PayloadAction<Failed<void>>) {
      state.summary.status = 'failed';
      state.summary.error = action.payload.message;
    },
    /** A retry, or a review was just stored: the page fetches the summary (and so page 1) again. */
    reviewSummaryReloadRequested(state) {
      state.summary.reload = true;
    },
    reviewsPageRequested(state, action: PayloadAction<number>) {
      state.list.status = 'loading';
      state.list.error = null;
      startPage(state.list, action.payload, true);
    },
    reviewsPageReceived(state, action: PayloadAction<Received<number, Paged<Review>>>) {
      state.list.status = 'loaded';
      receivePage(state.list, action.payload.arg, action.payload.result);
    },
    reviewsPageFailed(state, action: PayloadAction<Failed<number>>) {
      state.list.status = 'failed';
      state.list.error = action.payload.message;
    },
    drinksRequested(state, _action: PayloadAction<void>) {
      state.drinks.status = 'loading';
      state.drinks.error = null;
    },
    drinksReceived(state, action: PayloadAction<Received<void, Product[]>>) {
      const drinks = Array.isArray(action.payload.result) ? action.payload.result : [];
      state.drinks.status = 'loaded';
      state.drinks.items = drinks.map(({ _id, name }) => ({ _id, name }));
    },
    drinksFailed(state, action: PayloadAction<Failed<void>>) {
      state.drinks.status = 'failed';
      state.drinks.error = action.payload.message;
    },
    reviewSent(state) {
      state.form = { status: 'loading', error: null, reload: false };
    },
    reviewStored(state) {
      state.form = { status: 'loaded', error: null, reload: true };
      state.summary.reload = true;
    },
    reviewRefused(state, action: PayloadAction<string>) {
      state.form = { status: 'failed', error: action.payload, reload: false };
    },
    /** Leaving the page, or 'Write another review': the form starts empty again. */
    reviewFormReset(state) {
      state.form = initialLoadable;
    },
  },
  selectors: {
    selectReviewSummary: (state) => state.summary,
    selectReviewList: (state) => state.list,
    selectReviewDrinks: (state) => state.drinks,
    selectReviewForm: (state) => state.form,
  },
});

declare module '../../app/rootReducer' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  export interface LazyLoadedSlices extends WithSlice<typeof reviewsSlice> {}
}

const injected = reviewsSlice.injectInto(rootReducer);

export const {
  reviewSummaryRequested,
  reviewSummaryReceived,
  reviewSummaryFailed,
  reviewSummaryReloadRequested,
  reviewsPageRequested,
  reviewsPageReceived,
  reviewsPageFailed,
  drinksRequested,
  drinksReceived,
  drinksFailed,
  reviewSent,
  reviewStored,
  reviewRefused,
  reviewFormReset,
} = reviewsSlice.actions;
export const { selectReviewSummary, selectReviewList, selectReviewDrinks, selectReviewForm } = injected.selectors;

export const fetchReviewSummary = createLoader(
  { requested: reviewSummaryRequested, received: reviewSummaryReceived, failed: reviewSummaryFailed },
  (api) => api.get<ReviewSummaryPayload>('/home/uk/review/'),
  { logAs: 'GET /api/home/uk/review/' },
);

export const fetchReviewsPage = createLoader(
  { requested: reviewsPageRequested, received: reviewsPageReceived, failed: reviewsPageFailed },
  (api, page: number) => api.get<Paged<Review>>('/home_uk/palestine/comment/reviews', { query: { pageNumber: page } }),
);

/** The drinks for the form's select, once: skipped while held or on the way. */
export const fetchReviewDrinks = createLoader(
  { requested: drinksRequested, received: drinksReceived, failed: drinksFailed },
  (api) => api.get<Product[]>('/product/'),
  (state) =>
    ['loading', 'loaded'].includes(((state as { reviews?: ReviewsState }).reviews ?? initialReviewsState).drinks.status),
);

/** Sends a review checked by the form; e-mail and comment go trimmed and lower-cased, the name trimmed. */
export const sendReview =
  (form: ReviewForm): AppThunk<Promise<void>> =>
  async (dispatch, _getState, { api }) => {
    dispatch(reviewSent());
    try {
      await api.post<Review>('/reviews/create/', {
        rating: form.rating,
        comment: form.comment.trim().toLowerCase(),
        fullname: form.fullname.trim(),
        email: form.email.trim().toLowerCase(),
        products: form.products,
      });
      dispatch(reviewStored());
    } catch (error) {
      dispatch(reviewRefused(errorMessage(error)));
    }
  };

export default reviewsSlice;
