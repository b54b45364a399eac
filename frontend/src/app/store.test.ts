// Persistence: key 'root', version 1, timeout 5000 ms; only auth, cart and the applied discount survive a
// reload, without their transient fields, stored under the spec's names Auth, AddCart and TheDiscount; what a
// returning shopper saved under the earlier names (auth, cart, discount) is migrated. A reload reads them
// back before the first render (readSavedState, as main.tsx does); redux-persist saves (persistState).
import { describe, expect, it } from 'vitest';
import { initialAuthState, loginCodeSent, userLoggedIn } from '../state/session/authSlice';
import { cartLineFromProduct } from '../state/basket/cartLine';
import { cartLineAdded } from '../state/basket/cartSlice';
import { discountCodeAccepted, discountCodeRejected } from '../state/basket/discountSlice';
import { cartPanelToggled } from '../state/header/headerSlice';
import { homeReloadRequested } from '../features/home/homeSlice';
import { mango } from '../testing/fixtures';
import { persistConfig, persistState } from './persistence';
import { readSavedState } from './savedState';
import { makeStore } from './store';

/** A page load: the store starts from what is saved, then redux-persist takes over the saving. */
async function reloaded() {
  const store = makeStore(readSavedState());
  const persistor = await persistState(store);
  return { store, persistor };
}

describe('persist config', () => {
  it('uses key root, version 1, a 5 s timeout and the spec whitelist', () => {
    expect(persistConfig).toMatchObject({ key: 'root', version: 1, timeout: 5000 });
    expect(persistConfig.whitelist).toEqual(['auth', 'cart', 'discount']);
  });

  it('saves auth, cart and the applied discount, dropping transient fields', async () => {
    const { store, persistor } = await reloaded();
    store.dispatch(loginCodeSent({ email: 'shopper@example.com', at: 1 }));
    store.dispatch(userLoggedIn({ token: 'jwt', userInfo: { email: 'shopper@example.com' } }));
    store.dispatch(loginCodeSent({ email: 'other@example.com', at: 2 }));
    store.dispatch(cartLineAdded(cartLineFromProduct(mango, 2)));
    store.dispatch(discountCodeAccepted({ code: 'SUMMER', discount: 10 }));
    store.dispatch(discountCodeRejected('a later failure'));
    store.dispatch(cartPanelToggled());
    store.dispatch(homeReloadRequested());
    await persistor.flush();

    const saved = JSON.parse(window.localStorage.getItem('persist:root') ?? '{}') as Record<string, string>;
    expect(Object.keys(saved).sort()).toEqual(['AddCart', 'Auth', 'TheDiscount', '_persist']);
    expect(JSON.parse(saved.Auth ?? '')).toEqual({ userInfo: { email: 'shopper@example.com' }, token: 'jwt' });
    expect(JSON.parse(saved.AddCart ?? '').cartItems[0]).toMatchObject({ product: 'p-mango', qty: 2 });
    expect(JSON.parse(saved.TheDiscount ?? '')).toEqual({ applied: { code: 'SUMMER', discount: 10 } });
    expect(JSON.parse(saved._persist ?? '')).toMatchObject({ version: 1 });
  });

  it('restores them into a fresh store on reload, with defaults for the rest', async () => {
    const { store: first, persistor: firstPersistor } = await reloaded();
    first.dispatch(cartLineAdded(cartLineFromProduct(mango, 3)));
    first.dispatch(discountCodeAccepted({ code: 'SUMMER', discount: 10 }));
    first.dispatch(discountCodeRejected('transient'));
    await firstPersistor.flush();
    firstPersistor.pause();

    const second = makeStore(readSavedState());
    const state = second.getState();
    expect(state.cart.cartItems).toEqual([expect.objectContaining({ product: 'p-mango', qty: 3 })]);
    expect(state.discount).toEqual({ applied: { code: 'SUMMER', discount: 10 }, status: 'idle', error: null });
    expect(state.auth).toEqual(initialAuthState);
    expect(state.header.cartOpen).toBe(false);
  });

  it("migrates a returning shopper's basket, session and code saved under the earlier names", async () => {
    const line = { ...cartLineFromProduct(mango, 4) };
    window.localStorage.setItem(
      'persist:root',
      JSON.stringify({
        auth: JSON.stringify({ userInfo: { email: 'shopper@example.com', role: 'customer' }, token: 'old-jwt' }),
        cart: JSON.stringify({ cartItems: [line], address: {} }),
        discount: JSON.stringify({ applied: { code: 'SUMMER', discount: 10 } }),
        _persist: JSON.stringify({ version: 1, rehydrated: true }),
      }),
    );
    const { store, persistor } = await reloaded();
    const state = store.getState();
    expect(state.cart.cartItems).toEqual([expect.objectContaining({ product: 'p-mango', qty: 4 })]);
    expect(state.auth.token).toBe('old-jwt');
    expect(state.discount.applied).toEqual({ code: 'SUMMER', discount: 10 });

    // The next write stores the spec's names only.
    store.dispatch(cartLineAdded(cartLineFromProduct(mango, 5)));
    await persistor.flush();
    const saved = JSON.parse(window.localStorage.getItem('persist:root') ?? '{}') as Record<string, string>;
    expect(Object.keys(saved).sort()).toEqual(['AddCart', 'Auth', 'TheDiscount', '_persist']);
    expect(JSON.parse(saved.AddCart ?? '').cartItems).toEqual([expect.objectContaining({ product: 'p-mango', qty: 5 })]);
    expect(JSON.parse(saved.Auth ?? '').token).toBe('old-jwt');
  });

  it("prefers the spec's names when both layouts are stored", async () => {
    window.localStorage.setItem(
      'persist:root',
      JSON.stringify({
        cart: JSON.stringify({ cartItems: [cartLineFromProduct(mango, 1)], address: {} }),
        AddCart: JSON.stringify({ cartItems: [cartLineFromProduct(mango, 6)], address: {} }),
        _persist: JSON.stringify({ version: 1, rehydrated: true }),
      }),
    );
    expect(makeStore(readSavedState()).getState().cart.cartItems).toEqual([expect.objectContaining({ qty: 6 })]);
  });
});

describe('reading back before the first render', () => {
  it('keeps what the shopper did before redux-persist took over, and saves it', async () => {
    window.localStorage.setItem(
      'persist:root',
      JSON.stringify({
        AddCart: JSON.stringify({ cartItems: [cartLineFromProduct(mango, 2)], address: {} }),
        _persist: JSON.stringify({ version: 1, rehydrated: true }),
      }),
    );
    const store = makeStore(readSavedState());
    expect(store.getState().cart.cartItems).toEqual([expect.objectContaining({ qty: 2 })]);
    // A click before the saving chunk arrived: redux-persist's own read must not put the old basket back.
    store.dispatch(cartLineAdded(cartLineFromProduct(mango, 7)));
    const persistor = await persistState(store);
    expect(store.getState().cart.cartItems).toEqual([expect.objectContaining({ qty: 7 })]);
    await persistor.flush();
    const saved = JSON.parse(window.localStorage.getItem('persist:root') ?? '{}') as Record<string, string>;
    expect(JSON.parse(saved.AddCart ?? '').cartItems).toEqual([expect.objectContaining({ qty: 7 })]);
  });

  it('starts afresh when nothing readable is saved, or storage is blocked', () => {
    expect(readSavedState()).toEqual({});
    window.localStorage.setItem('persist:root', '{"AddCart": "{not json"}');
    expect(readSavedState()).toEqual({});
    const blocked = {
      getItem: () => {
        throw new DOMException('The operation is insecure.', 'SecurityError');
      },
    };
    expect(readSavedState(blocked)).toEqual({});
  });
});
