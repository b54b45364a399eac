// What survives a reload, read back before the first render. Only auth, the cart and the applied discount are
// saved, each without its transient fields (loading, errors), in localStorage's `persist:root` entry as
// redux-persist writes it (an object of JSON texts, one per slice, under the spec's names: persistedNames.ts).
//
// The first render must not wait for redux-persist (its code would cost the home page's first script about
// 3 KB gzipped): this small reader gives the store its saved state synchronously, and app/persistence.ts
// (redux-persist, a chunk of its own) takes over the saving once it has loaded, beside the first render.
import { initialAuthState, withAccessFlags, type AuthState } from '../state/session/authSlice';
import { initialCartState, type CartState } from '../state/basket/cartSlice';
import { initialDiscountState, type DiscountState } from '../state/basket/discountSlice';
import { renamed } from './persistedNames';
import type { RootState } from './rootReducer';

/** redux-persist's key (`persist:{key}` in localStorage). */
export const PERSIST_KEY = 'root';

export type SavedAuth = Pick<AuthState, 'userInfo' | 'token'>;
export type SavedCart = Pick<CartState, 'cartItems' | 'address'>;
export type SavedDiscount = Pick<DiscountState, 'applied'>;

/**
 * A saved slice becomes state again on top of its initial state, so a field added in a later release gets its
 * default. The access flags are derived from the role, never read from storage.
 */
export const restoreAuth = (saved: Partial<SavedAuth> | null): AuthState =>
  withAccessFlags({ ...initialAuthState, userInfo: saved?.userInfo ?? null, token: saved?.token ?? null });
export const restoreCart = (saved: Partial<SavedCart> | null): CartState => ({
  ...initialCartState,
  cartItems: Array.isArray(saved?.cartItems) ? saved.cartItems : [],
  address: saved?.address ?? {},
});
export const restoreDiscount = (saved: Partial<SavedDiscount> | null): DiscountState => ({
  ...initialDiscountState,
  applied: saved?.applied ?? null,
});

/**
 * The saved slices, as a store's preloaded state: none when nothing is saved, or when storage is blocked or
 * holds something unreadable (the shopper then starts afresh, as redux-persist would have it).
 */
export function readSavedState(storage: Pick<Storage, 'getItem'> = window.localStorage): Partial<RootState> {
  try {
    const text = storage.getItem(`persist:${PERSIST_KEY}`);
    if (!text) return {};
    const saved = JSON.parse(renamed(text, true)) as Record<string, unknown>;
    const slice = (key: string) => (typeof saved[key] === 'string' ? JSON.parse(saved[key]) : undefined);
    const [auth, cart, discount] = [slice('auth'), slice('cart'), slice('discount')];
    return {
      ...(auth === undefined ? {} : { auth: restoreAuth(auth) }),
      ...(cart === undefined ? {} : { cart: restoreCart(cart) }),
      ...(discount === undefined ? {} : { discount: restoreDiscount(discount) }),
    };
  } catch {
    return {};
  }
}
