// The spec's basket rules.
import { describe, expect, it } from 'vitest';
import { makeStore } from '../../app/store';
import { cola, lemon, mango } from '../../testing/fixtures';
import { cartLineFromProduct, selectCartTotal } from './cartLine';
import cartSlice, {
  cartAddressSaved,
  cartCleaned,
  cartLineAdded,
  cartLineRemoved,
  clampQty,
  initialCartState,
  selectCartCount,
  selectCartLines,
  type CartState,
} from './cartSlice';

const reduce = (state: CartState, action: Parameters<typeof cartSlice.reducer>[1]) => cartSlice.reducer(state, action);

describe('cart lines', () => {
  it('builds a line in the spec shape, priced with the discount', () => {
    expect(cartLineFromProduct(cola, 2)).toEqual({
      product: 'p-cola',
      name: 'Classic Cola',
      image: 'cola.png',
      quantity: '12 x 500ml',
      price: 11.25,
      des: 'The original.',
      qty: 2,
    });
    expect(cartLineFromProduct(mango).qty).toBe(1);
    expect(cartLineFromProduct(lemon).image).toBe('');
  });

  it('appends a product that is not in the basket yet', () => {
    let state = reduce(initialCartState, cartLineAdded(cartLineFromProduct(mango)));
    state = reduce(state, cartLineAdded(cartLineFromProduct(cola)));
    expect(state.cartItems.map((line) => line.product)).toEqual(['p-mango', 'p-cola']);
  });

  it('replaces the line of a product already in the basket, keeping its place', () => {
    let state = reduce(initialCartState, cartLineAdded(cartLineFromProduct(mango, 1)));
    state = reduce(state, cartLineAdded(cartLineFromProduct(cola, 1)));
    state = reduce(state, cartLineAdded(cartLineFromProduct(mango, 4)));
    expect(state.cartItems).toHaveLength(2);
    expect(state.cartItems[0]).toMatchObject({ product: 'p-mango', qty: 4 });
  });

  it('never keeps a quantity below 1 or a fraction', () => {
    const state = reduce(initialCartState, cartLineAdded({ ...cartLineFromProduct(mango), qty: 0 }));
    expect(state.cartItems[0]?.qty).toBe(1);
    expect(clampQty(-3)).toBe(1);
    expect(clampQty(2.7)).toBe(2);
    expect(clampQty('x')).toBe(1);
  });

  it('removes by product id', () => {
    let state = reduce(initialCartState, cartLineAdded(cartLineFromProduct(mango)));
    state = reduce(state, cartLineAdded(cartLineFromProduct(cola)));
    state = reduce(state, cartLineRemoved('p-mango'));
    expect(state.cartItems.map((line) => line.product)).toEqual(['p-cola']);
    expect(reduce(state, cartLineRemoved('p-unknown')).cartItems).toHaveLength(1);
  });

  it('cleaning empties the basket and keeps the address', () => {
    let state = reduce(initialCartState, cartAddressSaved({ fullname: 'Amira Haddad' }));
    state = reduce(state, cartLineAdded(cartLineFromProduct(mango)));
    state = reduce(state, cartCleaned());
    expect(state.cartItems).toEqual([]);
    expect(state.address).toEqual({ fullname: 'Amira Haddad' });
  });

  it('counts the cases, not the lines, and totals price × qty to 2 decimals', () => {
    const store = makeStore();
    store.dispatch(cartLineAdded(cartLineFromProduct(mango, 3))); // 3 × 4.99
    store.dispatch(cartLineAdded(cartLineFromProduct(cola, 2))); // 2 × 11.25
    expect(selectCartCount(store.getState())).toBe(5);
    expect(selectCartLines(store.getState())).toHaveLength(2);
    expect(selectCartTotal(store.getState())).toBe(37.47);
  });
});

describe('the basket reducer (a plain slice: lib/plainSlice.ts)', () => {
  const deepFreeze = <T>(value: T): T => {
    if (value && typeof value === 'object') Object.values(Object.freeze(value)).forEach(deepFreeze);
    return value;
  };

  it('never changes the state it is given', () => {
    const one = reduce(initialCartState, cartLineAdded(cartLineFromProduct(cola, 1)));
    const before = deepFreeze(reduce(one, cartLineAdded(cartLineFromProduct(lemon, 2))));
    const copy = structuredClone(before);
    for (const action of [
      cartLineAdded(cartLineFromProduct(cola, 5)),
      cartLineAdded(cartLineFromProduct(mango, 1)),
      cartLineRemoved('p-cola'),
      cartCleaned(),
      cartAddressSaved({ fullname: 'A Shopper' }),
    ]) {
      expect(() => reduce(before, action)).not.toThrow();
    }
    expect(before).toEqual(copy);
    const replaced = reduce(before, cartLineAdded(cartLineFromProduct(cola, 5)));
    expect(replaced.cartItems.map((line) => [line.product, line.qty])).toEqual([
      ['p-cola', 5],
      ['p-lemon', 2],
    ]);
  });
});
