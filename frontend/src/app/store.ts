// The store: every slice, the persist config (key 'root', version 1, timeout 5000 ms; only auth, the cart and
// the applied discount, with their transient fields dropped, stored under the spec's names Auth, AddCart and
// TheDiscount: see persistedNames.ts), and the API client the thunks call through.
import { configureStore } from '@reduxjs/toolkit';
import {
  createTransform,
  FLUSH,
  PAUSE,
  PERSIST,
  persistReducer,
  PURGE,
  REGISTER,
  REHYDRATE,
  type PersistConfig,
} from 'redux-persist';
import { createApiClient, type ApiClient } from '../lib/api';
import { initialAuthState, userLoggedOut, withAccessFlags, type AuthState } from '../features/auth/authSlice';
import { initialCartState, type CartState } from '../features/cart/cartSlice';
import { initialDiscountState, type DiscountState } from '../features/discount/discountSlice';
import { specNamedStorage } from './persistedNames';
import { rootReducer, type RootState } from './rootReducer';

export type { RootState } from './rootReducer';

/**
 * What survives a reload, per persisted slice; everything else (loading, errors) starts fresh. Restored
 * slices are rebuilt on top of their initial state, so a field added in a later release gets its default.
 */
const keepAuth = createTransform<AuthState, Pick<AuthState, 'userInfo' | 'token'>>(
  (state) => ({ userInfo: state.userInfo, token: state.token }),
  (saved) => withAccessFlags({ ...initialAuthState, userInfo: saved.userInfo ?? null, token: saved.token ?? null }),
  { whitelist: ['auth'] },
);
const keepCart = createTransform<CartState, CartState>(
  (state) => ({ cartItems: state.cartItems, address: state.address }),
  (saved) => ({
    ...initialCartState,
    cartItems: Array.isArray(saved.cartItems) ? saved.cartItems : [],
    address: saved.address ?? {},
  }),
  { whitelist: ['cart'] },
);
const keepDiscount = createTransform<DiscountState, Pick<DiscountState, 'applied'>>(
  (state) => ({ applied: state.applied }),
  (saved) => ({ ...initialDiscountState, applied: saved.applied ?? null }),
  { whitelist: ['discount'] },
);

const ROOT_KEY = 'root';

export const persistConfig: PersistConfig<RootState> = {
  key: ROOT_KEY,
  version: 1,
  timeout: 5000,
  // redux-persist names its entry `persist:{key}`.
  storage: specNamedStorage(`persist:${ROOT_KEY}`),
  whitelist: ['auth', 'cart', 'discount'],
  transforms: [keepAuth, keepCart, keepDiscount],
};

export interface StoreDeps {
  /** The fetch the API client uses: tests hand in a fake one at this seam. */
  fetch?: typeof globalThis.fetch;
  /** What follows a logout forced by an auth failure; a real page reload by default. */
  reload?: () => void;
}

export function makeStore(preloadedState?: Partial<RootState>, deps: StoreDeps = {}) {
  // The client needs the store (token, logout) and the store's thunks need the client: tie the knot late.
  let getState: (() => RootState) | null = null;
  let dispatchLogout: () => void = () => undefined;
  const api: ApiClient = createApiClient({
    getToken: () => getState?.().auth.token,
    onAuthFailure: () => {
      dispatchLogout();
      (deps.reload ?? (() => window.location.reload()))();
    },
    ...(deps.fetch ? { fetch: deps.fetch } : {}),
  });

  // The access flags always follow the session's role, whichever way the session arrived.
  if (preloadedState?.auth) preloadedState = { ...preloadedState, auth: withAccessFlags(preloadedState.auth) };
  const reducer = persistReducer(persistConfig, rootReducer);
  const store = configureStore({
    reducer,
    // A test's preloaded state has no _persist marker yet; persistReducer adds it on the first action.
    ...(preloadedState ? { preloadedState: preloadedState as ReturnType<typeof reducer> } : {}),
    middleware: (getDefaultMiddleware) =>
      getDefaultMiddleware({
        thunk: { extraArgument: { api } },
        serializableCheck: { ignoredActions: [FLUSH, REHYDRATE, PAUSE, PERSIST, PURGE, REGISTER] },
      }),
  });
  getState = store.getState;
  dispatchLogout = () => store.dispatch(userLoggedOut());
  return store;
}

export type AppStore = ReturnType<typeof makeStore>;
export type AppDispatch = AppStore['dispatch'];
