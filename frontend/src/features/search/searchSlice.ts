// Drinks search: GET /api/home/search/uk/palestinedrinks?search=text&pageNumber=n, answered under `comment`,
// with `didYouMean`: the corrected search whose drinks the answer holds when nothing matched as typed.
import { createSlice, type PayloadAction, type WithSlice } from '@reduxjs/toolkit';
import { rootReducer } from '../../app/rootReducer';
import { initialPagedList, receivePage, startPage, type PagedList } from '../../lib/paging';
import { createLoader, initialLoadable, type Failed, type Loadable, type Received } from '../../lib/thunk';
import type { ListedDrink, SearchPayload } from '../../types/catalog';

export interface SearchState extends Loadable, PagedList<ListedDrink> {
  query: string;
  /** The search the server corrected `query` to, or null when it matched as typed. */
  didYouMean: string | null;
}

export const initialSearchState: SearchState = { ...initialLoadable, ...initialPagedList<ListedDrink>(), query: '', didYouMean: null };

export interface SearchRequest {
  query: string;
  page: number;
}

const searchSlice = createSlice({
  name: 'search',
  initialState: initialSearchState,
  reducers: {
    searchRequested(state, action: PayloadAction<SearchRequest>) {
      const { query, page } = action.payload;
      state.status = 'loading';
      state.error = null;
      state.reload = false;
      startPage(state, page, query === state.query);
      if (page === 1 || query !== state.query) state.didYouMean = null;
      state.query = query;
    },
    searchReceived(state, action: PayloadAction<Received<SearchRequest, SearchPayload>>) {
      const { arg, result } = action.payload;
      if (arg.query !== state.query) return; // an answer to an earlier search
      state.status = 'loaded';
      receivePage(state, arg.page, result?.comment);
      state.didYouMean = result?.didYouMean ?? null;
    },
    searchFailed(state, action: PayloadAction<Failed<SearchRequest>>) {
      if (action.payload.arg.query !== state.query) return;
      state.status = 'failed';
      state.error = action.payload.message;
    },
    searchReloadRequested(state) {
      state.reload = true;
    },
  },
  selectors: {
    selectSearch: (state) => state,
  },
});

declare module '../../app/rootReducer' {
  export interface LazyLoadedSlices extends WithSlice<typeof searchSlice> {}
}

/** Loaded with its screen's chunk; until an action reaches it, its selectors read the initial state. */
const injected = searchSlice.injectInto(rootReducer);

export const { searchRequested, searchReceived, searchFailed, searchReloadRequested } = searchSlice.actions;
export const { selectSearch } = injected.selectors;

export const fetchSearch = createLoader(
  { requested: searchRequested, received: searchReceived, failed: searchFailed },
  (api, { query, page }: SearchRequest) =>
    api.get('/home/search/uk/palestinedrinks', { query: { search: query, pageNumber: page } }),
  null,
  'GET /api/home/search/uk/palestinedrinks',
);

export default searchSlice;
