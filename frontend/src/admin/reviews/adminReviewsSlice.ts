// The admin's reviews list: GET /api/reviews?pageNumber=n&cursor=c (the paged envelope, 20 a page, newest
// first, with the reviewer's e-mail and the drink's name; each next page read from where the last ended),
// 'load more' by the spec's paging rule; a delete (DELETE /api/reviews/delete/{id}), a hide or a show
// refetches the list from page 1, as the spec does after every delete. The reported and the hidden reviews
// are read on their own (moderation). Injected with the admin's chunk, so no shopper downloads it.
import { createSlice, type PayloadAction, type WithSlice } from '@reduxjs/toolkit';
import { rootReducer } from '../../app/rootReducer';
import { userLoggedOut } from '../../state/session/authSlice';
import { errorMessage, type Schemas } from '../../lib/api';
import { FIRST_PAGE, initialPagedList, receivePage, startPage, type Paged, type PagedList } from '../../lib/paging';
import { createLoader, initialLoadable, type AppThunk, type Failed, type Loadable, type Received } from '../../lib/thunk';

/** A review as the admin list answers it: with the reviewer's e-mail and the drink's name when written. */
export type AdminReview = Schemas['AdminReview'];

/** A reported review, with its reports. */
export type ReportedReview = Schemas['Reported'];

interface PageRequest {
  page: number;
  cursor: string | null;
}

export interface AdminReviewsState extends Loadable, PagedList<AdminReview> {
  /** Where the last page read ended. */
  cursor: string | null;
  /** Ids with a delete on its way. */
  busy: string[];
  /** The last delete that failed, as the server worded it. */
  actionError: string | null;
}

export const initialAdminReviewsState: AdminReviewsState = {
  ...initialLoadable,
  ...initialPagedList<AdminReview>(),
  cursor: null,
  busy: [],
  actionError: null,
};

const adminReviewsSlice = createSlice({
  name: 'adminReviews',
  initialState: initialAdminReviewsState,
  reducers: {
    adminReviewsPageRequested(state, action: PayloadAction<PageRequest>) {
      state.status = 'loading';
      state.error = null;
      state.reload = false;
      startPage(state, action.payload.page, true);
    },
    adminReviewsPageReceived(state, action: PayloadAction<Received<PageRequest, Paged<AdminReview>>>) {
      state.status = 'loaded';
      receivePage(state, action.payload.arg.page, action.payload.result);
      const next = (action.payload.result as { result?: { next?: { cursor?: string } } } | null)?.result?.next;
      state.cursor = next?.cursor ?? null;
    },
    adminReviewsPageFailed(state, action: PayloadAction<Failed<PageRequest>>) {
      state.status = 'failed';
      state.error = action.payload.message;
    },
    adminReviewsReloadRequested(state) {
      state.reload = true;
    },
    reviewDeleteStarted(state, action: PayloadAction<string>) {
      state.busy.push(action.payload);
      state.actionError = null;
    },
    reviewDeleted(state, action: PayloadAction<string>) {
      state.busy = state.busy.filter((id) => id !== action.payload);
      state.reload = true;
    },
    reviewDeleteFailed(state, action: PayloadAction<{ id: string; message: string }>) {
      state.busy = state.busy.filter((id) => id !== action.payload.id);
      state.actionError = action.payload.message;
    },
  },
  extraReducers: (builder) => {
    builder.addCase(userLoggedOut, () => initialAdminReviewsState);
  },
  selectors: {
    selectAdminReviews: (state) => state,
  },
});

declare module '../../app/rootReducer' {
  export interface LazyLoadedSlices extends WithSlice<typeof adminReviewsSlice> {}
}

const injected = adminReviewsSlice.injectInto(rootReducer);

export const {
  adminReviewsPageRequested,
  adminReviewsPageReceived,
  adminReviewsPageFailed,
  adminReviewsReloadRequested,
  reviewDeleteStarted,
  reviewDeleted,
  reviewDeleteFailed,
} = adminReviewsSlice.actions;
export const { selectAdminReviews } = injected.selectors;

const loadAdminReviewsPage = createLoader(
  { requested: adminReviewsPageRequested, received: adminReviewsPageReceived, failed: adminReviewsPageFailed },
  (api, { page, cursor }: PageRequest) => api.get('/reviews', { query: { pageNumber: page, cursor: cursor ?? undefined } }),
);

/** Page `page` of the shown reviews: page 1 afresh, a later page from where the last one ended. */
export const fetchAdminReviewsPage =
  (page: number): AppThunk<Promise<void>> =>
  async (dispatch, getState) => {
    const held = (getState() as { adminReviews?: AdminReviewsState }).adminReviews ?? initialAdminReviewsState;
    await dispatch(loadAdminReviewsPage({ page, cursor: page === FIRST_PAGE ? null : held.cursor }));
  };

/** The reviews shoppers reported (most recently first), or the reason they could not be read. */
export const fetchReportedReviews =
  (): AppThunk<Promise<ReportedReview[] | string>> =>
  async (_dispatch, _getState, { api }) => {
    try {
      return await api.get('/reviews/reported/');
    } catch (error) {
      return errorMessage(error);
    }
  };

/** The hidden reviews, every page of them, or the reason they could not be read. */
export const fetchHiddenReviews =
  (): AppThunk<Promise<AdminReview[] | string>> =>
  async (_dispatch, _getState, { api }) => {
    try {
      const all: AdminReview[] = [];
      let cursor: string | undefined;
      for (let page = FIRST_PAGE; ; page += 1) {
        const answer = await api.get('/reviews', { query: { hidden: 'true', pageNumber: page, cursor } });
        all.push(...answer.product);
        cursor = answer.result.next?.cursor;
        if (!cursor) return all;
      }
    } catch (error) {
      return errorMessage(error);
    }
  };

/** Hides a review from the shop (`hide`), or shows it again and settles its reports (`unhide`). */
export const moderateReview =
  (id: string, action: 'hide' | 'unhide'): AppThunk<Promise<string | null>> =>
  async (dispatch, _getState, { api }) => {
    dispatch(reviewDeleteStarted(id));
    try {
      if (action === 'hide') await api.post('/reviews/hide/{id}', undefined, { params: { id } });
      else await api.post('/reviews/unhide/{id}', undefined, { params: { id } });
      dispatch(reviewDeleted(id));
      return null;
    } catch (error) {
      const message = errorMessage(error);
      dispatch(reviewDeleteFailed({ id, message }));
      return message;
    }
  };

export const deleteReview =
  (id: string): AppThunk<Promise<void>> =>
  async (dispatch, _getState, { api }) => {
    dispatch(reviewDeleteStarted(id));
    try {
      await api.delete('/reviews/delete/{id}', { params: { id } });
      dispatch(reviewDeleted(id));
    } catch (error) {
      dispatch(reviewDeleteFailed({ id, message: errorMessage(error) }));
    }
  };

export default adminReviewsSlice;
