import { describe, expect, it } from 'vitest';
import { makeStore, type RootState } from '../../app/store';
import { fakeFetch, json, type FakeCall } from '../../testing/fakeFetch';
import { fakeCardPayment } from '../../testing/fakeStripe';
import type { CartLine } from '../cart/cartSlice';
import { checkoutOpened, placeOrder, selectCheckout } from './checkoutSlice';

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

type Routes = Record<string, (call: FakeCall) => Response>;

function storeWith(routes: Routes) {
  const fake = fakeFetch(routes);
  const preloaded: Partial<RootState> = {
    cart: { cartItems: [line('p-mango', 4.99, 2), line('p-cola', 11.25, 1)], address: {} },
    discount: { applied: { code: 'SUMMER', discount: 10 }, status: 'loaded', error: null },
  };
  return { store: makeStore(preloaded, { fetch: fake.fetch }), calls: fake.calls };
}

const paid = (id: string) => () => json(id, 201);

describe('placing an order', () => {
  it('201: sends the lines, the code and the PaymentMethod id (never the card) under an Idempotency-Key, then clears the basket', async () => {
    const { store, calls } = storeWith({ 'POST /api/order/create/': paid('o-new') });
    const payment = fakeCardPayment('4242 4242 4242 4242');
    store.dispatch(checkoutOpened());
    const key = selectCheckout(store.getState()).idempotencyKey;
    expect(key).toMatch(/^[0-9a-f-]{36}$/);

    expect(await store.dispatch(placeOrder(details, payment))).toBe('o-new');

    expect(payment.calls).toEqual([
      {
        method: 'createPaymentMethod',
        arg: { type: 'card', card: payment.card, billing_details: { name: 'Layla Haddad', email: 'layla@example.com', phone: '07700 900123' } },
      },
    ]);
    const [call] = calls;
    expect(calls).toHaveLength(1);
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
      payment: { provider: 'stripe', paymentMethod: 'pm_fake_4242' },
    });
    expect(JSON.stringify(call?.body)).not.toContain('4242424242424242');
    const state = store.getState();
    expect(state.cart.cartItems).toEqual([]);
    expect(state.discount.applied).toBeNull();
    expect(selectCheckout(state)).toMatchObject({ status: 'loaded', orderId: 'o-new', idempotencyKey: null });
    store.dispatch(checkoutOpened());
    expect(selectCheckout(store.getState()).idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("202: runs the bank's check with the client secret, then lets the server confirm, and lands on the order", async () => {
    const order: string[] = [];
    const { store, calls } = storeWith({
      'POST /api/order/create/': () => {
        order.push('create');
        return json({ _id: 'o-3ds', clientSecret: 'pi_123_secret_abc', status: 'requires_action' }, 202);
      },
      'POST /api/order/confirm/o-3ds/': () => {
        order.push('confirm');
        return json('o-3ds', 200);
      },
    });
    const payment = fakeCardPayment('4000 0027 6000 3184');
    store.dispatch(checkoutOpened());

    expect(await store.dispatch(placeOrder(details, payment))).toBe('o-3ds');

    expect(payment.calls.map((c) => c.method)).toEqual(['createPaymentMethod', 'handleCardAction']);
    expect(payment.calls[1]?.arg).toBe('pi_123_secret_abc');
    expect(order).toEqual(['create', 'confirm']);
    expect(calls[1]?.body).toBeUndefined(); // the confirm carries nothing: the server asks Stripe
    expect(store.getState().cart.cartItems).toEqual([]);
    expect(selectCheckout(store.getState())).toMatchObject({ status: 'loaded', orderId: 'o-3ds', awaitingBank: false });
  });

  it("202 and a failed bank check: the server's refusal is shown, the basket kept, and the next try is a new order", async () => {
    const { store, calls } = storeWith({
      'POST /api/order/create/': () => json({ _id: 'o-3ds', clientSecret: 'pi_9_secret_z', status: 'requires_action' }, 202),
      'POST /api/order/confirm/o-3ds/': () => json({ message: 'Your bank did not confirm the payment: nothing was charged' }, 402),
    });
    store.dispatch(checkoutOpened());
    const key = selectCheckout(store.getState()).idempotencyKey;

    expect(await store.dispatch(placeOrder(details, fakeCardPayment('4000 0027 6000 3184', { bankSaysYes: false })))).toBeNull();

    expect(calls.map((c) => c.url.pathname)).toEqual(['/api/order/create/', '/api/order/confirm/o-3ds/']);
    expect(selectCheckout(store.getState())).toMatchObject({ status: 'failed', error: 'Your bank did not confirm the payment: nothing was charged' });
    expect(selectCheckout(store.getState()).idempotencyKey).not.toBe(key);
    expect(store.getState().cart.cartItems).toHaveLength(2);
  });

  it('202 and the bank still deciding (409): the order stands, pending, and the shopper goes to it', async () => {
    const { store } = storeWith({
      'POST /api/order/create/': () => json({ _id: 'o-wait', clientSecret: 'pi_7_secret_w', status: 'requires_action' }, 202),
      'POST /api/order/confirm/o-wait/': () => json({ message: 'The payment is still waiting for your bank' }, 409),
    });
    expect(await store.dispatch(placeOrder(details, fakeCardPayment('4000 0027 6000 3184')))).toBe('o-wait');
    expect(store.getState().cart.cartItems).toEqual([]);
  });

  it("402: shows the decline reason at the form, keeps the basket, and pays next time under a new key", async () => {
    let answer = json({ message: 'Your card was declined.' }, 402);
    const { store, calls } = storeWith({ 'POST /api/order/create/': () => answer });
    store.dispatch(checkoutOpened());

    expect(await store.dispatch(placeOrder(details, fakeCardPayment('4000 0000 0000 0341')))).toBeNull();
    expect(selectCheckout(store.getState())).toMatchObject({ status: 'failed', error: 'Your card was declined.' });
    expect(store.getState().cart.cartItems).toHaveLength(2);
    expect(store.getState().discount.applied).not.toBeNull();

    answer = json('o-second', 201);
    expect(await store.dispatch(placeOrder(details, fakeCardPayment('4242 4242 4242 4242')))).toBe('o-second');
    expect(calls[1]?.headers.get('Idempotency-Key')).not.toBe(calls[0]?.headers.get('Idempotency-Key'));
  });

  it("keeps the basket and the key on another refusal (409 stock), so a retry cannot make a second order", async () => {
    let answer = json({ message: 'Only 3 of Cola left' }, 409);
    const { store, calls } = storeWith({ 'POST /api/order/create/': () => answer });
    store.dispatch(checkoutOpened());
    expect(await store.dispatch(placeOrder(details, fakeCardPayment('4242 4242 4242 4242')))).toBeNull();
    expect(selectCheckout(store.getState())).toMatchObject({ status: 'failed', error: 'Only 3 of Cola left' });
    answer = json('o-first', 200); // a repeated key answers the first order's id
    expect(await store.dispatch(placeOrder(details, fakeCardPayment('4242 4242 4242 4242')))).toBe('o-first');
    expect(calls[1]?.headers.get('Idempotency-Key')).toBe(calls[0]?.headers.get('Idempotency-Key'));
  });

  it("shows Stripe's own message for a card it refuses, without calling the shop", async () => {
    const { store, calls } = storeWith({ 'POST /api/order/create/': paid('o-never') });
    expect(await store.dispatch(placeOrder(details, fakeCardPayment('4242 4242')))).toBeNull();
    expect(calls).toHaveLength(0);
    expect(selectCheckout(store.getState()).error).toBe('Your card number is incomplete.');
  });

  it('sends one order for a double submit', async () => {
    const { store, calls } = storeWith({ 'POST /api/order/create/': paid('o-new') });
    const payment = fakeCardPayment('4242 4242 4242 4242');
    const [a, b] = await Promise.all([store.dispatch(placeOrder(details, payment)), store.dispatch(placeOrder(details, payment))]);
    expect(calls).toHaveLength(1);
    expect([a, b]).toEqual(['o-new', null]);
  });
});
