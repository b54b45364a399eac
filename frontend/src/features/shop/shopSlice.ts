// The shop's drinks list, paged: GET /api/home/drinks/hom/uk/uk/?pageNumber=n with the shopper's choice of
// order and filters (&category=&sort=&inStock=&minPrice=&maxPrice=). Page 1 replaces the list, later pages
// ('load more') append to it; the server sorts before paging, so appended pages continue the order. The
// categories (for the filter and the category page's heading) are fetched once.
import { createSlice, type PayloadAction, type WithSlice } from '@reduxjs/toolkit';
import { rootReducer } from '../../app/rootReducer';
import { initialPagedList, receivePage, startPage, type PagedList } from '../../lib/paging';
import { createLoader, initialLoadable, type Failed, type Loadable, type Received } from '../../lib/thunk';
import type { Category, ListedDrink, PagedProducts } from '../../types/catalog';
import { choiceQuery, DEFAULT_CHOICE, sameChoice, type ShopChoice } from './browse';

export interface ShopState extends Loadable, PagedList<ListedDrink> {
  /** The order and filters the list holds. */
  choice: ShopChoice;
  categories: Category[];
  categoriesStatus: Loadable['status'];
}

export const initialShopState: ShopState = {
  ...initialLoadable,
  ...initialPagedList<ListedDrink>(),
  choice: DEFAULT_CHOICE,
  categories: [],
  categoriesStatus: 'idle',
};

/** A page of the list; what the choice leaves out is its default (every drink, in the admin's order). */
export interface DrinksPageRequest extends Partial<ShopChoice> {
  page: number;
}

const choiceOf = (request: DrinksPageRequest): ShopChoice => {
  const { page: _page, ...given } = request;
  return { ...DEFAULT_CHOICE, ...given };
};

const shopSlice = createSlice({
  name: 'shop',
  initialState: initialShopState,
  reducers: {
    drinksPageRequested(state, action: PayloadAction<DrinksPageRequest>) {
      const choice = choiceOf(action.payload);
      state.status = 'loading';
      state.error = null;
      state.reload = false;
      startPage(state, action.payload.page, sameChoice(choice, state.choice));
      state.choice = choice;
    },
    drinksPageReceived(state, action: PayloadAction<Received<DrinksPageRequest, PagedProducts>>) {
      const { arg, result } = action.payload;
      if (!sameChoice(choiceOf(arg), state.choice)) return; // the shopper changed the choice meanwhile
      state.status = 'loaded';
      receivePage(state, arg.page, result);
    },
    drinksPageFailed(state, action: PayloadAction<Failed<DrinksPageRequest>>) {
      if (!sameChoice(choiceOf(action.payload.arg), state.choice)) return;
      state.status = 'failed';
      state.error = action.payload.message;
    },
    shopReloadRequested(state) {
      state.reload = true;
    },
    categoriesRequested(state) {
      state.categoriesStatus = 'loading';
    },
    categoriesReceived(state, action: PayloadAction<Received<void, Category[]>>) {
      state.categories = Array.isArray(action.payload.result) ? action.payload.result : [];
      state.categoriesStatus = 'loaded';
    },
    categoriesFailed(state, _action: PayloadAction<Failed<void>>) {
      // The list still works without them: the filter offers 'All drinks' only.
      state.categoriesStatus = 'failed';
    },
  },
  selectors: {
    selectShop: (state) => state,
    selectShopCategories: (state) => state.categories,
  },
});

declare module '../../app/rootReducer' {
  export interface LazyLoadedSlices extends WithSlice<typeof shopSlice> {}
}

/** Loaded with its screen's chunk; until an action reaches it, its selectors read the initial state. */
const injected = shopSlice.injectInto(rootReducer);

export const {
  drinksPageRequested,
  drinksPageReceived,
  drinksPageFailed,
  shopReloadRequested,
  categoriesRequested,
  categoriesReceived,
  categoriesFailed,
} = shopSlice.actions;
export const { selectShop, selectShopCategories } = injected.selectors;

export const fetchDrinksPage = createLoader(
  { requested: drinksPageRequested, received: drinksPageReceived, failed: drinksPageFailed },
  (api, request: DrinksPageRequest) =>
    api.get('/home/drinks/hom/uk/uk/', { query: { pageNumber: request.page, ...choiceQuery(choiceOf(request)) } }),
  null,
  'GET /api/home/drinks/hom/uk/uk/',
);

/** The categories, unless held or on their way. */
export const fetchShopCategories = createLoader(
  { requested: categoriesRequested, received: categoriesReceived, failed: categoriesFailed },
  (api) => api.get('/category/'),
  (state) => {
    const status = selectShop(state as Parameters<typeof selectShop>[0]).categoriesStatus;
    return status === 'loading' || status === 'loaded';
  },
);

export default shopSlice;
