// Home page data: featured drinks and categories from GET /api/home/home/uk/. A plain slice (no immer): the
// first page holds it (lib/plainSlice.ts).
import type { PayloadAction } from '@reduxjs/toolkit';
import { createPlainSlice } from '../../lib/plainSlice';
import { createLoader, initialLoadable, type Failed, type Loadable, type Received } from '../../lib/thunk';
import type { Category, HomePayload, Product } from '../../types/catalog';

export interface HomeState extends Loadable {
  products: Product[];
  categories: Category[];
}

export const initialHomeState: HomeState = { ...initialLoadable, products: [], categories: [] };

const homeSlice = createPlainSlice('home', initialHomeState, {
  homeRequested: (state, _action: PayloadAction<void>) => ({
    ...state,
    status: 'loading',
    error: null,
    reload: false,
  }),
  homeReceived: (state, action: PayloadAction<Received<void, HomePayload>>) => ({
    ...state,
    status: 'loaded',
    products: action.payload.result.product ?? [],
    categories: action.payload.result.category ?? [],
  }),
  homeFailed: (state, action: PayloadAction<Failed<void>>) => ({
    ...state,
    status: 'failed',
    error: action.payload.message,
  }),
  homeReloadRequested: (state) => ({ ...state, reload: true }),
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
