// Saving what survives a reload (redux-persist): key 'root', version 1, timeout 5000 ms, only auth, the cart
// and the applied discount, without their transient fields, under the spec's names Auth, AddCart and
// TheDiscount (persistedNames.ts). This module is a chunk of its own that loads beside the first render
// (main.tsx): the store already holds the saved state by then (savedState.ts), so redux-persist's own read is
// not merged into it (`stateReconciler: false`), and nothing the shopper did meanwhile is undone.
import {
  createTransform,
  persistReducer,
  persistStore,
  type PersistConfig,
  type Persistor,
} from 'redux-persist';
import type { AuthState } from '../state/session/authSlice';
import type { CartState } from '../state/basket/cartSlice';
import type { DiscountState } from '../state/basket/discountSlice';
import { specNamedStorage } from './persistedNames';
import { rootReducer, type RootState } from './rootReducer';
import {
  PERSIST_KEY,
  restoreAuth,
  restoreCart,
  restoreDiscount,
  type SavedAuth,
  type SavedCart,
  type SavedDiscount,
} from './savedState';
import type { AppStore } from './store';

/** What is saved of each persisted slice, and (the way back) how savedState.ts restores it. */
const keepAuth = createTransform<AuthState, SavedAuth>(
  (state) => ({ userInfo: state.userInfo, token: state.token }),
  restoreAuth,
  { whitelist: ['auth'] },
);
const keepCart = createTransform<CartState, SavedCart>(
  (state) => ({ cartItems: state.cartItems, address: state.address }),
  restoreCart,
  { whitelist: ['cart'] },
);
const keepDiscount = createTransform<DiscountState, SavedDiscount>(
  (state) => ({ applied: state.applied }),
  restoreDiscount,
  { whitelist: ['discount'] },
);

export const persistConfig: PersistConfig<RootState> = {
  key: PERSIST_KEY,
  version: 1,
  timeout: 5000,
  // redux-persist names its entry `persist:{key}`.
  storage: specNamedStorage(`persist:${PERSIST_KEY}`),
  whitelist: ['auth', 'cart', 'discount'],
  transforms: [keepAuth, keepCart, keepDiscount],
  stateReconciler: false,
};

/**
 * Saves the store's persisted slices from now on: answers redux-persist's persistor once it is in place (its
 * `flush()` writes what is pending, e.g. before a reload).
 */
export function persistState(store: AppStore): Promise<Persistor> {
  store.replaceReducer(persistReducer(persistConfig, rootReducer) as unknown as typeof rootReducer);
  return new Promise((resolve) => {
    const persistor = persistStore(store, null, () => resolve(persistor));
  });
}
