import { beforeEach, describe, expect, it } from 'vitest';
import { makeStore, type RootState } from '../../app/store';
import { fakeFetch, json, type FakeCall } from '../../testing/fakeFetch';
import { fakeCardPayment } from '../../testing/fakeStripe';
import { checkoutDrinks, priceBasket, quoteRoute, type QuotedDrink } from '../../testing/quoteFixtures';
import { cartLineAdded, type CartLine } from '../../state/basket/cartSlice';
import { checkoutOpened, fetchQuote, openCheckout, placeOrder, selectCheckout } from './checkoutSlice';

const line = (product: string, price: number, qty: number): CartLine => ({
  product,
  name: product,
  image: '',
  quantity: '24 x 330ml',
  price,
  des: '',
  qty,
});

const details = {
  fullname: ' Layla Haddad ',
  addressLine1: '12 Olive Street',
  addressLine2: ' ',
  town: 'Leeds',
  postcode: 'ls1 4ab',
  phone: '07700 900123',
  email: 'layla@example.com',
  message: '',
  billingPostcode: 'ls1 4ab',
  dateOfBirth: '',
};

type Routes = Record<string, (call: FakeCall) => Response>;

const drinks: Record<string, QuotedDrink> = {
  'p-mango': { name: 'Mango Fizz', price: 4.99 },
  'p-cola': { name: 'Classic Cola', price: 11.25 },
};

function storeWith(routes: Routes) {
  const fake = fakeFetch({ 'POST /api/order/quote/': quoteRoute(drinks), ...routes });
  const preloaded: Partial<RootState> = {
    cart: { cartItems: [line('p-mango', 4.99, 2), line('p-cola', 11.25, 1)], address: {} },
    discount: { applied: { code: 'SUMMER', discount: 10 }, status: 'loaded', error: null },
  };
  return { store: makeStore(preloaded, { fetch: fake.fetch }), calls: fake.calls };
}

/** The checkout as the page opens it: a key, and the server's quote on screen. */
async function opened(store: ReturnType<typeof storeWith>['store']) {
  store.dispatch(openCheckout());
  await store.dispatch(fetchQuote());
}

const creates = (calls: FakeCall[]) => calls.filter((c) => c.url.pathname === '/api/order/create/');
/** A paid answer: the id, and the key of its link in `Order-Key`. */
const paid = (id: string) => () => json(id, 201, { 'Order-Key': `1999999999.key-of-${id}` });

beforeEach(() => localStorage.clear());

describe('placing an order', () => {
  it('201: prices again, sends the address parts, the code, the total shown and the PaymentMethod id (never the card) under an Idempotency-Key, then clears the basket', async () => {
    const { store, calls } = storeWith({ 'POST /api/order/create/': paid('o-new') });
    const payment = fakeCardPayment('4242 4242 4242 4242');
    await opened(store);
    const key = selectCheckout(store.getState()).idempotencyKey;
    expect(key).toMatch(/^[0-9a-f-]{36}$/);
    // 2 x 4.99 + 11.25 = 21.23, less 10% = 19.11, plus 4.99 delivery.
    expect(selectCheckout(store.getState()).quote?.total).toBe(24.1);

    expect(await store.dispatch(placeOrder(details, payment))).toEqual({ id: 'o-new', key: '1999999999.key-of-o-new' });

    expect(payment.calls).toEqual([
      {
        method: 'createPaymentMethod',
        arg: {
          type: 'card',
          card: payment.card,
          billing_details: { name: 'Layla Haddad', email: 'layla@example.com', phone: '07700 900123', address: { postal_code: 'LS1 4AB' } },
        },
      },
    ]);
    expect(calls.map((c) => c.url.pathname)).toEqual(['/api/order/quote/', '/api/order/quote/', '/api/order/create/']);
    const [call] = creates(calls);
    expect(call?.headers.get('Idempotency-Key')).toBe(key);
    expect(call?.body).toEqual({
      fullname: 'Layla Haddad',
      addressLine1: '12 Olive Street',
      town: 'Leeds',
      postcode: 'ls1 4ab',
      phone: '07700 900123',
      email: 'layla@example.com',
      message: '',
      product: [
        { product: 'p-mango', qty: 2 },
        { product: 'p-cola', qty: 1 },
      ],
      code: 'SUMMER',
      expectedTotal: 24.1,
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

  it('a total that moved since the quote stops before the card is read, and says what changed; the next Pay agrees to it', async () => {
    let prices = drinks;
    const { store, calls } = storeWith({
      'POST /api/order/quote/': quoteRoute(() => prices),
      'POST /api/order/create/': paid('o-new'),
    });
    await opened(store);
    prices = { ...drinks, 'p-cola': { name: 'Classic Cola', price: 18.99 } };
    const payment = fakeCardPayment('4242 4242 4242 4242');

    expect(await store.dispatch(placeOrder(details, payment))).toBeNull();
    expect(payment.calls).toEqual([]);
    expect(creates(calls)).toHaveLength(0);
    const checkout = selectCheckout(store.getState());
    expect(checkout.error).toMatch(/^The total changed since you opened the checkout: nothing was charged/);
    expect(checkout.priceChange?.before.total).toBe(24.1);
    expect(checkout.priceChange?.after.total).toBe(31.06);
    expect(checkout.quote?.total).toBe(31.06);

    expect((await store.dispatch(placeOrder(details, payment)))?.id).toBe('o-new');
    expect(creates(calls)[0]?.body).toMatchObject({ expectedTotal: 31.06 });
    expect(selectCheckout(store.getState()).priceChange).toBeNull();
  });

  it("a 409 with the server's new figures shows them as a price change and keeps the basket", async () => {
    const basket = { product: [{ product: 'p-mango', qty: 2 }, { product: 'p-cola', qty: 1 }], code: 'SUMMER' };
    const moved = { ...priceBasket(basket, checkoutDrinks), total: 26.5 };
    const { store } = storeWith({
      'POST /api/order/create/': () => json({ message: 'The total is now £26.50 (you were shown £24.10): nothing was charged.', quote: moved }, 409),
    });
    await opened(store);
    expect(await store.dispatch(placeOrder(details, fakeCardPayment('4242 4242 4242 4242')))).toBeNull();
    expect(selectCheckout(store.getState()).priceChange?.after.total).toBe(26.5);
    expect(store.getState().cart.cartItems).toHaveLength(2);
  });

  it('sends the date of birth only when the quote asks for it', async () => {
    const restricted = { ...drinks, 'p-cola': { name: 'Night Shift', price: 11.25, restricted: true } };
    const { store, calls } = storeWith({ 'POST /api/order/quote/': quoteRoute(restricted), 'POST /api/order/create/': paid('o-age') });
    await opened(store);
    expect(selectCheckout(store.getState()).quote?.minimumAge).toBe(16);
    expect((await store.dispatch(placeOrder({ ...details, dateOfBirth: '2001-04-30' }, fakeCardPayment('4242 4242 4242 4242'))))?.id).toBe('o-age');
    expect(creates(calls)[0]?.body).toMatchObject({ dateOfBirth: '2001-04-30' });

    const plain = storeWith({ 'POST /api/order/create/': paid('o-plain') });
    await opened(plain.store);
    await plain.store.dispatch(placeOrder({ ...details, dateOfBirth: '2001-04-30' }, fakeCardPayment('4242 4242 4242 4242')));
    expect(creates(plain.calls)[0]?.body).not.toHaveProperty('dateOfBirth');
  });

  it('keeps the key for this basket across a reload (a new store), and makes a new one for another basket', async () => {
    const first = storeWith({ 'POST /api/order/create/': () => json({ message: 'Only 3 of Cola left' }, 409) });
    await opened(first.store);
    await first.store.dispatch(placeOrder(details, fakeCardPayment('4242 4242 4242 4242')));
    const key = creates(first.calls)[0]?.headers.get('Idempotency-Key');
    expect(key).toBeTruthy();

    const reloaded = storeWith({ 'POST /api/order/create/': () => json('o-first', 200) });
    await opened(reloaded.store);
    expect(selectCheckout(reloaded.store.getState()).idempotencyKey).toBe(key);
    expect((await reloaded.store.dispatch(placeOrder(details, fakeCardPayment('4242 4242 4242 4242'))))?.id).toBe('o-first');
    expect(creates(reloaded.calls)[0]?.headers.get('Idempotency-Key')).toBe(key);
    // Paid: the kept key is gone, so the next basket starts afresh.
    expect(localStorage.getItem('checkoutKey')).toBeNull();

    const other = storeWith({});
    other.store.dispatch(cartLineAdded(line('p-lemon', 3, 1)));
    other.store.dispatch(openCheckout());
    expect(selectCheckout(other.store.getState()).idempotencyKey).not.toBe(key);
  });

  it("202: runs the bank's check with the client secret, then lets the server confirm, and lands on the order", async () => {
    const order: string[] = [];
    const { store, calls } = storeWith({
      'POST /api/order/create/': () => {
        order.push('create');
        return json({ _id: 'o-3ds', clientSecret: 'pi_123_secret_abc', status: 'requires_action' }, 202, { 'Order-Key': '1999999999.k3ds' });
      },
      'POST /api/order/confirm/o-3ds/': () => {
        order.push('confirm');
        return json('o-3ds', 200);
      },
    });
    const payment = fakeCardPayment('4000 0027 6000 3184');
    await opened(store);

    // The key comes with the first answer: the confirmation, open to anyone with the id, carries none.
    expect(await store.dispatch(placeOrder(details, payment))).toEqual({ id: 'o-3ds', key: '1999999999.k3ds' });

    expect(payment.calls.map((c) => c.method)).toEqual(['createPaymentMethod', 'handleCardAction']);
    expect(payment.calls[1]?.arg).toBe('pi_123_secret_abc');
    expect(order).toEqual(['create', 'confirm']);
    expect(calls.find((c) => c.url.pathname === '/api/order/confirm/o-3ds/')?.body).toBeUndefined(); // the server asks Stripe
    expect(store.getState().cart.cartItems).toEqual([]);
    expect(selectCheckout(store.getState())).toMatchObject({ status: 'loaded', orderId: 'o-3ds', awaitingBank: false });
  });

  it("202 and a failed bank check: the server's refusal is shown, the basket kept, and the next try is a new order", async () => {
    const { store, calls } = storeWith({
      'POST /api/order/create/': () => json({ _id: 'o-3ds', clientSecret: 'pi_9_secret_z', status: 'requires_action' }, 202),
      'POST /api/order/confirm/o-3ds/': () => json({ message: 'Your bank did not confirm the payment: nothing was charged' }, 402),
    });
    await opened(store);
    const key = selectCheckout(store.getState()).idempotencyKey;

    expect(await store.dispatch(placeOrder(details, fakeCardPayment('4000 0027 6000 3184', { bankSaysYes: false })))).toBeNull();

    expect(calls.map((c) => c.url.pathname)).toEqual(['/api/order/quote/', '/api/order/quote/', '/api/order/create/', '/api/order/confirm/o-3ds/']);
    expect(selectCheckout(store.getState())).toMatchObject({ status: 'failed', error: 'Your bank did not confirm the payment: nothing was charged' });
    expect(selectCheckout(store.getState()).idempotencyKey).not.toBe(key);
    expect(store.getState().cart.cartItems).toHaveLength(2);
  });

  it('202 and the bank still deciding (409): the order stands, pending, and the shopper goes to it', async () => {
    const { store } = storeWith({
      'POST /api/order/create/': () => json({ _id: 'o-wait', clientSecret: 'pi_7_secret_w', status: 'requires_action' }, 202),
      'POST /api/order/confirm/o-wait/': () => json({ message: 'The payment is still waiting for your bank' }, 409),
    });
    await opened(store);
    expect((await store.dispatch(placeOrder(details, fakeCardPayment('4000 0027 6000 3184'))))?.id).toBe('o-wait');
    expect(store.getState().cart.cartItems).toEqual([]);
  });

  it('402: shows the decline reason at the form, keeps the basket, and pays next time under a new key', async () => {
    let answer = json({ message: 'Your card was declined.' }, 402);
    const { store, calls } = storeWith({ 'POST /api/order/create/': () => answer });
    await opened(store);

    expect(await store.dispatch(placeOrder(details, fakeCardPayment('4000 0000 0000 0341')))).toBeNull();
    expect(selectCheckout(store.getState())).toMatchObject({ status: 'failed', error: 'Your card was declined.' });
    expect(store.getState().cart.cartItems).toHaveLength(2);
    expect(store.getState().discount.applied).not.toBeNull();

    answer = json('o-second', 201);
    expect((await store.dispatch(placeOrder(details, fakeCardPayment('4242 4242 4242 4242'))))?.id).toBe('o-second');
    const [first, second] = creates(calls);
    expect(second?.headers.get('Idempotency-Key')).not.toBe(first?.headers.get('Idempotency-Key'));
  });

  it('keeps the basket and the key on another refusal (409 stock), so a retry cannot make a second order', async () => {
    let answer = json({ message: 'Only 3 of Cola left' }, 409);
    const { store, calls } = storeWith({ 'POST /api/order/create/': () => answer });
    await opened(store);
    expect(await store.dispatch(placeOrder(details, fakeCardPayment('4242 4242 4242 4242')))).toBeNull();
    expect(selectCheckout(store.getState())).toMatchObject({ status: 'failed', error: 'Only 3 of Cola left' });
    answer = json('o-first', 200); // a repeated key answers the first order's id
    expect((await store.dispatch(placeOrder(details, fakeCardPayment('4242 4242 4242 4242'))))?.id).toBe('o-first');
    const [first, second] = creates(calls);
    expect(second?.headers.get('Idempotency-Key')).toBe(first?.headers.get('Idempotency-Key'));
  });

  it('a key the server holds for other details is replaced, so the next Pay can go through', async () => {
    const { store } = storeWith({
      'POST /api/order/create/': () => json({ message: 'Idempotency-Key was already used for a different order: send a new key' }, 422),
    });
    await opened(store);
    const key = selectCheckout(store.getState()).idempotencyKey;
    expect(await store.dispatch(placeOrder(details, fakeCardPayment('4242 4242 4242 4242')))).toBeNull();
    expect(selectCheckout(store.getState()).idempotencyKey).not.toBe(key);
  });

  it("shows Stripe's own message for a card it refuses, without placing an order", async () => {
    const { store, calls } = storeWith({ 'POST /api/order/create/': paid('o-never') });
    await opened(store);
    expect(await store.dispatch(placeOrder(details, fakeCardPayment('4242 4242')))).toBeNull();
    expect(creates(calls)).toHaveLength(0);
    expect(selectCheckout(store.getState()).error).toBe('Your card number is incomplete.');
  });

  it('sends one order for a double submit', async () => {
    const { store, calls } = storeWith({ 'POST /api/order/create/': paid('o-new') });
    await opened(store);
    const payment = fakeCardPayment('4242 4242 4242 4242');
    const [a, b] = await Promise.all([store.dispatch(placeOrder(details, payment)), store.dispatch(placeOrder(details, payment))]);
    expect(creates(calls)).toHaveLength(1);
    expect([a?.id, b]).toEqual(['o-new', null]);
  });
});
