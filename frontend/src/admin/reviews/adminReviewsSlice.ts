// The admin's reviews list: GET /api/reviews?pageNumber=n (the paged envelope, 20 a page, newest first, with
// the reviewer's e-mail and the drink's name), 'load more' by the spec's paging rule; a delete (DELETE
// /api/reviews/delete/{id}) refetches the list from page 1, as the spec does after every delete. Injected
// with the admin's chunk, so no shopper downloads it.
import { createSlice, type PayloadAction, type WithSlice } from '@reduxjs/toolkit';
import { rootReducer } from '../../app/rootReducer';
import { userLoggedOut } from '../../features/auth/authSlice';
import { errorMessage, type Schemas } from '../../lib/api';
import { initialPagedList, receivePage, startPage, type Paged, type PagedList } from '../../lib/paging';
import { createLoader, initialLoadable, type AppThunk, type Failed, type Loadable, type Received } from '../../lib/thunk';

/** A review as the admin list answers it: with the reviewer's e-mail and the drink's name when written. */
export type AdminReview = Schemas['AdminReview'];

export interface AdminReviewsState extends Loadable, PagedList<AdminReview> {
  /** Ids with a delete on its way. */
  busy: string[];
  /** The last delete that failed, as the server worded it. */
  actionError: string | null;
}

export const initialAdminReviewsState: AdminReviewsState = {
  ...initialLoadable,
  ...initialPagedList<AdminReview>(),
  busy: [],
  actionError: null,
};

const adminReviewsSlice = createSlice({
  name: 'adminReviews',
  initialState: initialAdminReviewsState,
  reducers: {
    adminReviewsPageRequested(state, action: PayloadAction<number>) {
      state.status = 'loading';
      state.error = null;
      state.reload = false;
      startPage(state, action.payload, true);
    },
    adminReviewsPageReceived(state, action: PayloadAction<Received<number, Paged<AdminReview>>>) {
      state.status = 'loaded';
      receivePage(state, action.payload.arg, action.payload.result);
    },
    adminReviewsPageFailed(state, action: PayloadAction<Failed<number>>) {
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
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
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

export const fetchAdminReviewsPage = createLoader(
  { requested: adminReviewsPageRequested, received: adminReviewsPageReceived, failed: adminReviewsPageFailed },
  (api, page: number) => api.get('/reviews', { query: { pageNumber: page } }),
);

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
