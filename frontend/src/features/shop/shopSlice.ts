// The shop's drinks list, paged: GET /api/home/drinks/hom/uk/uk/?pageNumber=n (&category=id). Page 1
// replaces the list, later pages ('load more') append to it.
import { createSlice, type PayloadAction, type WithSlice } from '@reduxjs/toolkit';
import { rootReducer } from '../../app/rootReducer';
import { initialPagedList, receivePage, startPage, type PagedList } from '../../lib/paging';
import { createLoader, initialLoadable, type Failed, type Loadable, type Received } from '../../lib/thunk';
import type { PagedProducts, Product } from '../../types/catalog';

export interface ShopState extends Loadable, PagedList<Product> {
  /** The category the list is filtered by, or null for all drinks. */
  category: string | null;
}

export const initialShopState: ShopState = { ...initialLoadable, ...initialPagedList<Product>(), category: null };

export interface DrinksPageRequest {
  page: number;
  category?: string | null;
}

const shopSlice = createSlice({
  name: 'shop',
  initialState: initialShopState,
  reducers: {
    drinksPageRequested(state, action: PayloadAction<DrinksPageRequest>) {
      const { page, category = null } = action.payload;
      state.status = 'loading';
      state.error = null;
      state.reload = false;
      startPage(state, page, category === state.category);
      state.category = category;
    },
    drinksPageReceived(state, action: PayloadAction<Received<DrinksPageRequest, PagedProducts>>) {
      const { arg, result } = action.payload;
      if ((arg.category ?? null) !== state.category) return; // the shopper switched category meanwhile
      state.status = 'loaded';
      receivePage(state, arg.page, result);
    },
    drinksPageFailed(state, action: PayloadAction<Failed<DrinksPageRequest>>) {
      if ((action.payload.arg.category ?? null) !== state.category) return;
      state.status = 'failed';
      state.error = action.payload.message;
    },
    shopReloadRequested(state) {
      state.reload = true;
    },
  },
  selectors: {
    selectShop: (state) => state,
  },
});

declare module '../../app/rootReducer' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  export interface LazyLoadedSlices extends WithSlice<typeof shopSlice> {}
}

/** Loaded with its screen's chunk; until an action reaches it, its selectors read the initial state. */
const injected = shopSlice.injectInto(rootReducer);

export const { drinksPageRequested, drinksPageReceived, drinksPageFailed, shopReloadRequested } = shopSlice.actions;
export const { selectShop } = injected.selectors;

export const fetchDrinksPage = createLoader(
  { requested: drinksPageRequested, received: drinksPageReceived, failed: drinksPageFailed },
  (api, { page, category }: DrinksPageRequest) =>
    api.get('/home/drinks/hom/uk/uk/', { query: { pageNumber: page, category: category || undefined } }),
  null,
  'GET /api/home/drinks/hom/uk/uk/',
);

export default shopSlice;
