// Home page data: featured drinks and categories from GET /api/home/home/uk/.
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { createLoader, initialLoadable, type Failed, type Loadable, type Received } from '../../lib/thunk';
import type { Category, HomePayload, Product } from '../../types/catalog';

export interface HomeState extends Loadable {
  products: Product[];
  categories: Category[];
}

export const initialHomeState: HomeState = { ...initialLoadable, products: [], categories: [] };

const homeSlice = createSlice({
  name: 'home',
  initialState: initialHomeState,
  reducers: {
    homeRequested(state, _action: PayloadAction<void>) {
      state.status = 'loading';
      state.error = null;
      state.reload = false;
    },
    homeReceived(state, action: PayloadAction<Received<void, HomePayload>>) {
      state.status = 'loaded';
      state.products = action.payload.result.product ?? [];
      state.categories = action.payload.result.category ?? [];
    },
    homeFailed(state, action: PayloadAction<Failed<void>>) {
      state.status = 'failed';
      state.error = action.payload.message;
    },
    homeReloadRequested(state) {
      state.reload = true;
    },
  },
});

export const { homeRequested, homeReceived, homeFailed, homeReloadRequested } = homeSlice.actions;

export const fetchHome = createLoader(
  { requested: homeRequested, received: homeReceived, failed: homeFailed },
  (api) => api.get('/home/home/uk/'),
  null,
  'GET /api/home/home/uk/',
);

export const selectHome = (state: { home: HomeState }) => state.home;

export default homeSlice;
