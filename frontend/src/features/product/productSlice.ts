// The product page's drink: GET /api/product/{id}. A 404 is remembered apart from other failures: the page
// then says the drink does not exist rather than offering 'Try again'.
import { createSlice, type PayloadAction, type WithSlice } from '@reduxjs/toolkit';
import { rootReducer } from '../../app/rootReducer';
import { ApiError, errorMessage } from '../../lib/api';
import { initialLoadable, type AppThunk, type Failed, type Loadable, type Received } from '../../lib/thunk';
import type { Product } from '../../types/catalog';

export interface ProductState extends Loadable {
  /** The id asked for last; `product` belongs to it once loaded. */
  id: string | null;
  product: Product | null;
  /** The last failure was the server saying there is no drink with this id. */
  notFound: boolean;
}

export const initialProductState: ProductState = { ...initialLoadable, id: null, product: null, notFound: false };

const productSlice = createSlice({
  name: 'product',
  initialState: initialProductState,
  reducers: {
    productRequested(state, action: PayloadAction<string>) {
      state.status = 'loading';
      state.error = null;
      state.reload = false;
      state.notFound = false;
      if (state.id !== action.payload) state.product = null;
      state.id = action.payload;
    },
    productReceived(state, action: PayloadAction<Received<string, Product>>) {
      if (state.id !== action.payload.arg) return; // an answer for a page the shopper already left
      state.status = 'loaded';
      state.product = action.payload.result;
    },
    productFailed(state, action: PayloadAction<Failed<string> & { notFound?: boolean }>) {
      if (state.id !== action.payload.arg) return;
      state.status = 'failed';
      state.error = action.payload.message;
      state.notFound = action.payload.notFound ?? false;
    },
    productReloadRequested(state) {
      state.reload = true;
    },
  },
  selectors: {
    selectProductState: (state) => state,
  },
});

declare module '../../app/rootReducer' {
  export interface LazyLoadedSlices extends WithSlice<typeof productSlice> {}
}

/** Loaded with its screen's chunk; until an action reaches it, its selectors read the initial state. */
const injected = productSlice.injectInto(rootReducer);

export const { productRequested, productReceived, productFailed, productReloadRequested } = productSlice.actions;
export const { selectProductState } = injected.selectors;

export const fetchProduct =
  (id: string): AppThunk<Promise<void>> =>
  async (dispatch, _getState, { api }) => {
    dispatch(productRequested(id));
    try {
      dispatch(productReceived({ arg: id, result: await api.get('/product/{_id}', { params: { _id: id } }) }));
    } catch (error) {
      const notFound = error instanceof ApiError && error.status === 404;
      dispatch(productFailed({ arg: id, message: errorMessage(error), notFound }));
    }
  };

export default productSlice;
