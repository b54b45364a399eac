// The root reducer. Slices every page needs are combined here; the slices of lazily loaded screens (shop,
// search, product, the site info) inject themselves when their chunk loads, so the home page does not download them.
// combineSlices comes through lib/toolkit.ts, as the first page's copy of Redux Toolkit.
import { combineSlices } from '../lib/toolkit';
import authSlice from '../state/session/authSlice';
import cartSlice from '../state/basket/cartSlice';
import discountSlice from '../state/basket/discountSlice';
import headerSlice from '../state/header/headerSlice';
import homeSlice from '../features/home/homeSlice';

/** Slices that inject themselves later add their state type here (declaration merging). */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- empty on purpose: the lazily injected slices add their members (declaration merging)
export interface LazyLoadedSlices {}

export const rootReducer = combineSlices(
  authSlice,
  cartSlice,
  discountSlice,
  headerSlice,
  homeSlice,
).withLazyLoadedSlices<LazyLoadedSlices>();

export type RootState = ReturnType<typeof rootReducer>;
