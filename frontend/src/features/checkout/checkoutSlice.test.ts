import { describe, expect, it } from 'vitest';
import { makeStore, type RootState } from '../../app/store';
import { fakeFetch, json, type FakeCall } from '../../testing/fakeFetch';
import type { CartLine } from '../cart/cartSlice';
import { checkoutOpened, placeOrder, selectCheckout } from './checkoutSlice';
import { createTestProvider } from './payment';

const line = (product: string, price: number, qty: number): CartLine => ({
  product,
  name: product,
  image: '',
  quantity: '24 x 330ml',
  price,
  des: '',
  qty,
});

const details = { fullname: ' Layla Haddad ', address: '12 Olive Street', phone: '07700 900123', email: 'layla@example.com', message: '' };
const visa = { number: '4242 4242 4242 4242', expiry: '12/99', securityCode: '123' };
const provider = createTestProvider();

function storeWith(route: (call: FakeCall) => Response) {
  const fake = fakeFetch({ 'POST /api/order/create/': route });
  const preloaded: Partial<RootState> = {
    cart: { cartItems: [line('p-mango', 4.99, 2), line('p-cola', 11.25, 1)], address: {} },
    discount: { applied: { code: 'SUMMER', discount: 10 }, status: 'loaded', error: null },
  };
  return { store: makeStore(preloaded, { fetch: fake.fetch }), calls: fake.calls };
}

describe('placing an order', () => {
  it('sends the lines, the code and a card token (never the number or security code) under an Idempotency-Key', async () => {
    const { store, calls } = storeWith(() => json('o-new', 201));
    store.dispatch(checkoutOpened());
    const key = selectCheckout(store.getState()).idempotencyKey;
    expect(key).toMatch(/^[0-9a-f-]{36}$/);

    expect(await store.dispatch(placeOrder(details, visa, provider))).toBe('o-new');

    const [call] = calls;
    expect(call?.headers.get('Idempotency-Key')).toBe(key);
    expect(call?.body).toEqual({
      fullname: 'Layla Haddad',
      address: '12 Olive Street',
      phone: '07700 900123',
      email: 'layla@example.com',
      message: '',
      product: [
        { product: 'p-mango', qty: 2 },
        { product: 'p-cola', qty: 1 },
      ],
      code: 'SUMMER',
      payment: { provider: 'test', token: expect.stringMatching(/^tok_test_/), brand: 'visa', last4: '4242' },
    });
    const sent = JSON.stringify(call?.body);
    expect(sent).not.toContain('4242424242424242');
    expect(sent).not.toContain('4242 4242');
    expect(sent).not.toContain('"123"');
  });

  it('clears the basket and the applied code on success, and makes a new key for the next order', async () => {
    const { store } = storeWith(() => json('o-new', 201));
    store.dispatch(checkoutOpened());
    await store.dispatch(placeOrder(details, visa, provider));
    const state = store.getState();
    expect(state.cart.cartItems).toEqual([]);
    expect(state.discount.applied).toBeNull();
    expect(selectCheckout(state)).toMatchObject({ status: 'loaded', orderId: 'o-new', idempotencyKey: null });
    store.dispatch(checkoutOpened());
    expect(selectCheckout(store.getState()).idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("keeps the basket and shows the server's message on 409, then retries with the same key", async () => {
    let answer = json({ message: 'Only 3 of Cola left' }, 409);
    const { store, calls } = storeWith(() => answer);
    store.dispatch(checkoutOpened());
    expect(await store.dispatch(placeOrder(details, visa, provider))).toBeNull();
    expect(selectCheckout(store.getState())).toMatchObject({ status: 'failed', error: 'Only 3 of Cola left' });
    expect(store.getState().cart.cartItems).toHaveLength(2);

    answer = json('o-first', 200); // a repeated key answers the first order's id
    expect(await store.dispatch(placeOrder(details, visa, provider))).toBe('o-first');
    expect(calls[1]?.headers.get('Idempotency-Key')).toBe(calls[0]?.headers.get('Idempotency-Key'));
  });

  it('shows the declined message and a card error without calling the server for a bad card', async () => {
    const { store, calls } = storeWith(() => json({ message: 'Your card was declined: try another card' }, 402));
    await store.dispatch(placeOrder(details, { ...visa, number: '4000 0000 0000 0002' }, provider));
    expect(selectCheckout(store.getState()).error).toBe('Your card was declined: try another card');
    await store.dispatch(placeOrder(details, { ...visa, securityCode: '1' }, provider));
    expect(calls).toHaveLength(1);
    expect(selectCheckout(store.getState()).error).toBe('Enter the 3 or 4 digit security code');
  });

  it('sends one order for a double submit', async () => {
    const { store, calls } = storeWith(() => json('o-new', 201));
    const [a, b] = await Promise.all([
      store.dispatch(placeOrder(details, visa, provider)),
      store.dispatch(placeOrder(details, visa, provider)),
    ]);
    expect(calls).toHaveLength(1);
    expect([a, b]).toEqual(['o-new', null]);
  });
});
