import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { RootState } from '../../../app/store';
import { json } from '../../../testing/fakeFetch';
import { fakeStripeCalls, installFakeStripe, paymentSettings } from '../../../testing/fakeStripe';
import { makeOrder, orderPage } from '../../../testing/orderFixtures';
import { renderApp } from '../../../testing/renderWithProviders';
import { checkoutDrinks, quoteRoute } from '../../../testing/quoteFixtures';
import { shopApi as catalogueApi } from '../../../testing/shopApi';

/** The catalogue, the orders function's payment settings (the fake Stripe stands in for Stripe.js) and quote. */
const shopApi = (overrides: Parameters<typeof catalogueApi>[0] = {}) =>
  catalogueApi({ 'GET /api/order/payment-settings/': paymentSettings, 'POST /api/order/quote/': quoteRoute(), ...overrides });

beforeEach(() => {
  installFakeStripe();
  localStorage.clear();
});

/** Lazy screens load their chunks on first use; a busy machine can take longer than the default 1 s. */
const FIRST_LOAD = { timeout: 5000 };

const basket: Partial<RootState> = {
  cart: {
    cartItems: [
      { product: 'p-mango', name: 'Mango Fizz', image: 'mango.png', quantity: '24 x 330ml', price: 4.99, des: '', qty: 2 },
      { product: 'p-cola', name: 'Classic Cola', image: 'cola.png', quantity: '24 x 330ml', price: 11.25, des: '', qty: 1 },
    ],
    address: {},
  },
};

async function fillValid(user: ReturnType<typeof renderApp>['user']) {
  await user.type(screen.getByLabelText('Full name'), 'Layla Haddad');
  await user.type(screen.getByLabelText('Address line 1'), '12 Olive Street');
  await user.type(screen.getByLabelText('Town or city'), 'Leeds');
  await user.type(screen.getByLabelText('Postcode'), 'ls1 4ab');
  await user.type(screen.getByLabelText('Phone'), '07700 900123');
  await user.type(screen.getByLabelText('E-mail'), 'layla@example.com');
  await typeCard(user, '4242 4242 4242 4242');
}

async function typeCard(user: ReturnType<typeof renderApp>['user'], number: string) {
  await user.type(await screen.findByLabelText('Card number'), number);
  await user.type(screen.getByLabelText('Expiration date (MM/YY)'), '12/99');
  await user.type(screen.getByLabelText('Security code'), '123');
}

describe('CheckoutPage', () => {
  it('shows the trader, the VAT in the total, the delivery estimate and the terms and right to cancel before paying', async () => {
    renderApp('/checkout', { preloadedState: basket, deps: { fetch: shopApi().fetch } });
    const box = await screen.findByTestId('before-you-pay', undefined, FIRST_LOAD);
    expect(box).toHaveTextContent('You are buying from Palestine Drinks');
    await waitFor(() => expect(within(box).getByTestId('checkout-vat')).toHaveTextContent('£4.37'));
    // 21.23 + 4.99 = 26.22, of which VAT 26.22 / 6 = 4.37.
    expect(within(box).getByTestId('checkout-vat')).toHaveTextContent('£4.37');
    expect(box).toHaveTextContent('2 to 4 working days');
    expect(within(box).getByRole('link', { name: 'terms of sale' })).toHaveAttribute('href', '/drinks/policies/terms');
    expect(within(box).getByRole('link', { name: 'your right to cancel' })).toHaveAttribute(
      'href',
      '/drinks/policies/returns#model-cancellation-form',
    );
    expect(within(box).getByTestId('return-costs')).toHaveTextContent('you pay the cost of sending the drinks back');
    // The box comes before the button, which says what it does.
    const pay = screen.getByRole('button', { name: 'Pay £26.22' });
    expect(box.compareDocumentPosition(pay) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('shows Delivery, Payment with Order pay, and the Order summary with Subtotal, Shipping and Total', async () => {
    renderApp('/checkout', { preloadedState: basket, deps: { fetch: shopApi().fetch } });
    expect(await screen.findByRole('heading', { name: 'Delivery' }, FIRST_LOAD)).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Payment' })).toBeInTheDocument();
    expect(screen.getByRole('group', { name: 'Order pay' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Order summary' })).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('subtotal')).toHaveTextContent('£21.23'));
    expect(screen.getByTestId('shipping')).toHaveTextContent('£4.99');
    expect(screen.getByTestId('total')).toHaveTextContent('£26.22');
  });

  it('puts the order summary and the discount box before the Pay button in the document (a phone reads it so)', async () => {
    renderApp('/checkout', { preloadedState: basket, deps: { fetch: shopApi().fetch } });
    const summary = await screen.findByRole('heading', { name: 'Order summary' }, FIRST_LOAD);
    const pay = screen.getByRole('button', { name: /^Pay / });
    const follows = (a: Node, b: Node) => Boolean(a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING);
    expect(follows(summary, pay)).toBe(true);
    expect(follows(screen.getByLabelText('Discount code'), pay)).toBe(true);
    expect(follows(screen.getByRole('group', { name: 'Order pay' }), summary)).toBe(true);
    // Still the checkout form's button, though it sits after the summary.
    expect(pay).toHaveAttribute('form', screen.getByRole('form', { name: 'Checkout' }).id);
  });

  it('sets the error flag and marks the fields for an invalid submit, sending nothing', async () => {
    const api = shopApi();
    const { user } = renderApp('/checkout', { preloadedState: basket, deps: { fetch: api.fetch } });
    await user.type(await screen.findByLabelText('Full name', undefined, FIRST_LOAD), 'Layla');
    await screen.findByLabelText('Card number');
    await user.type(screen.getByLabelText('Postcode'), 'LS1');
    await waitFor(() => expect(screen.getByRole('button', { name: /^Pay £/ })).toBeEnabled());
    await user.click(screen.getByRole('button', { name: /^Pay / }));
    expect(screen.getByText('Please check the highlighted fields.')).toBeInTheDocument();
    expect(screen.getByLabelText('Full name')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByTestId('card-number-error')).toHaveTextContent('Enter your card number');
    expect(screen.getByTestId('card-expiry-error')).toHaveTextContent('Enter the expiry date as MM/YY');
    expect(screen.getByTestId('card-cvc-error')).toHaveTextContent('Enter the security code');
    expect(screen.getByLabelText('Postcode')).toHaveAccessibleDescription('Enter a UK postcode, like SW1A 1AA');
    expect(screen.getByLabelText('Address line 1')).toHaveAttribute('aria-invalid', 'true');
    // Focus goes to the first field to fix, its error read with it.
    await waitFor(() => expect(screen.getByLabelText('Full name')).toHaveFocus());
    expect(screen.getByLabelText('Full name')).toHaveAccessibleDescription('Enter your full name (more than 5 characters)');
    expect(api.calls.some((c) => c.url.pathname === '/api/order/create/')).toBe(false);
    expect(fakeStripeCalls).toEqual([]);
    // Once every field is fixed, the summary of what to fix goes too.
    await user.clear(screen.getByLabelText('Postcode'));
    await fillValid(user);
    await waitFor(() => expect(screen.queryByText('Please check the highlighted fields.')).not.toBeInTheDocument());
  });

  it("draws Stripe's three card fields under the spec's labels once the payment settings arrive", async () => {
    renderApp('/checkout', { preloadedState: basket, deps: { fetch: shopApi().fetch } });
    const group = await screen.findByRole('group', { name: 'Order pay' }, FIRST_LOAD);
    for (const label of ['Card number', 'Expiration date (MM/YY)', 'Security code']) {
      expect(await within(group).findByLabelText(label)).toBeInstanceOf(HTMLInputElement);
    }
    expect(screen.queryByTestId('card-fields-loading')).not.toBeInTheDocument();
  });

  it('says when the card fields cannot load, and loads them on Try again', async () => {
    // A new answer per call: the card fields and the delivery terms both ask.
    let settings = () => json({ message: 'Try later' }, 503);
    const api = shopApi({ 'GET /api/order/payment-settings/': () => settings() });
    const { user } = renderApp('/checkout', { preloadedState: basket, deps: { fetch: api.fetch } });
    expect(await screen.findByTestId('card-fields-error', undefined, FIRST_LOAD)).toHaveTextContent('Try later');
    expect(screen.getByRole('button', { name: /^Pay / })).toBeDisabled();
    settings = () => json(paymentSettings);
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByLabelText('Card number')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('button', { name: /^Pay / })).toBeEnabled());
  });

  it('refuses payment settings that point the card fields at another site', async () => {
    const api = shopApi({ 'GET /api/order/payment-settings/': { publishableKey: 'pk_test_x', jsUrl: 'https://cards.example.com/stripe.js' } });
    renderApp('/checkout', { preloadedState: basket, deps: { fetch: api.fetch } });
    expect(await screen.findByTestId('card-fields-error', undefined, FIRST_LOAD)).toHaveTextContent('could not be loaded safely');
    expect(screen.queryByLabelText('Card number')).not.toBeInTheDocument();
  });

  it("applies a code (the total drops) or shows the server's message", async () => {
    const api = shopApi({
      'POST /api/code/customer/': ({ body }) =>
        json(
          (body as { code: string }).code === 'SUMMER'
            ? { status: true, data: { code: 'SUMMER', discount: 10 }, message: 'ok' }
            : { status: false, message: 'This code has expired' },
        ),
    });
    const { user, store } = renderApp('/checkout', { preloadedState: basket, deps: { fetch: api.fetch } });
    await user.type(await screen.findByLabelText('Discount code', undefined, FIRST_LOAD), 'OLD');
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    expect(await screen.findByTestId('code-error')).toHaveTextContent('This code has expired');
    await user.clear(screen.getByLabelText('Discount code'));
    await user.type(screen.getByLabelText('Discount code'), 'SUMMER');
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    expect(await screen.findByTestId('applied-code')).toHaveTextContent('SUMMER');
    // The summary is priced again by the server with the code.
    expect(await screen.findByTestId('discount')).toHaveTextContent('£2.12');
    expect(screen.getByTestId('total')).toHaveTextContent('£24.10');
    expect(api.calls.filter((c) => c.url.pathname === '/api/order/quote/').at(-1)?.body).toMatchObject({ code: 'SUMMER' });
    expect(store.getState().discount.applied).toEqual({ code: 'SUMMER', discount: 10 });
  });

  it('pays, clears the basket and goes to /myorder/{id}, which shows the server’s totals', async () => {
    const api = shopApi({
      'POST /api/order/create/': json('o-new', 201, { 'Order-Key': '1999999999.k-new' }),
      'GET /api/order/Orderdetails/o-new': makeOrder({ _id: 'o-new', total: 26.22 }),
    });
    const { user, store } = renderApp('/checkout', { preloadedState: basket, deps: { fetch: api.fetch } });
    await screen.findByLabelText('Full name', undefined, FIRST_LOAD);
    await fillValid(user);
    await user.click(await screen.findByRole('button', { name: 'Pay £26.22' }));
    expect(await screen.findByTestId('order-total')).toHaveTextContent('£26.22');
    expect(screen.getByText(/Thank you/)).toBeInTheDocument();
    expect(within(screen.getByRole('table')).getAllByTestId('order-line')).toHaveLength(2);
    expect(store.getState().cart.cartItems).toEqual([]);
    const create = api.calls.find((c) => c.url.pathname === '/api/order/create/');
    expect(create?.headers.get('Idempotency-Key')).toBeTruthy();
    // The page was asked for with the checkout's key, so it shows the drinks, name and address.
    const page = api.calls.find((c) => c.url.pathname === '/api/order/Orderdetails/o-new');
    expect(page?.url.searchParams.get('key')).toBe('1999999999.k-new');
    expect(create?.body).toMatchObject({ addressLine1: '12 Olive Street', town: 'Leeds', postcode: 'LS1 4AB', expectedTotal: 26.22 });
    // The billing postcode followed the delivery postcode into the card's PaymentMethod.
    expect(fakeStripeCalls[0]?.arg).toMatchObject({ billing_details: { address: { postal_code: 'LS1 4AB' } } });
  });

  it("runs the bank's check for a 3-D Secure card, lets the server confirm, and goes to the paid order", async () => {
    const api = shopApi({
      'POST /api/order/create/': json({ _id: 'o-3ds', clientSecret: 'pi_1_secret_2', status: 'requires_action' }, 202),
      'POST /api/order/confirm/o-3ds/': json('o-3ds', 200),
      'GET /api/order/Orderdetails/o-3ds': makeOrder({ _id: 'o-3ds', total: 26.22, card: { brand: 'visa', last4: '3184' } }),
    });
    const { user, store } = renderApp('/checkout', { preloadedState: basket, deps: { fetch: api.fetch } });
    await screen.findByLabelText('Full name', undefined, FIRST_LOAD);
    await fillValid(user);
    await user.click(await screen.findByRole('button', { name: 'Pay £26.22' }));
    expect(await screen.findByTestId('order-total')).toHaveTextContent('£26.22');
    expect(fakeStripeCalls.map((c) => c.method)).toEqual(['createPaymentMethod', 'handleCardAction']);
    expect(fakeStripeCalls[1]?.arg).toBe('pi_1_secret_2');
    expect(store.getState().cart.cartItems).toEqual([]);
  });

  it('shows a declined card’s reason at the form and keeps the basket', async () => {
    const api = shopApi({ 'POST /api/order/create/': json({ message: 'Your card was declined.' }, 402) });
    const { user, store } = renderApp('/checkout', { preloadedState: basket, deps: { fetch: api.fetch } });
    await screen.findByLabelText('Full name', undefined, FIRST_LOAD);
    await fillValid(user);
    await user.click(await screen.findByRole('button', { name: /^Pay £/ }));
    expect(await screen.findByTestId('checkout-error')).toHaveTextContent('Your card was declined.');
    expect(screen.getByTestId('checkout-error')).toHaveAttribute('role', 'alert');
    await waitFor(() => expect(screen.getByTestId('checkout-error')).toHaveFocus());
    expect(store.getState().cart.cartItems).toHaveLength(2);
    expect(screen.getByRole('heading', { name: 'Checkout' })).toBeInTheDocument();
  });

  it('shows a stock conflict next to the form and keeps the basket', async () => {
    const api = shopApi({ 'POST /api/order/create/': json({ message: 'Only 3 of Cola left' }, 409) });
    const { user, store } = renderApp('/checkout', { preloadedState: basket, deps: { fetch: api.fetch } });
    await screen.findByLabelText('Full name', undefined, FIRST_LOAD);
    await fillValid(user);
    await user.click(await screen.findByRole('button', { name: /^Pay £/ }));
    expect(await screen.findByTestId('checkout-error')).toHaveTextContent('Only 3 of Cola left');
    expect(store.getState().cart.cartItems).toHaveLength(2);
  });

  it("starts a logged-in customer's form with their own details", async () => {
    renderApp('/checkout', {
      preloadedState: {
        ...basket,
        auth: {
          userInfo: {
            email: 'layla@example.com',
            role: 'customer',
            fullname: 'Layla Haddad',
            phone: '07700 900123',
            address: '',
            addressLine1: '12 Olive Street',
            addressLine2: '',
            town: 'Leeds',
            postcode: 'LS1 4AB',
          },
          token: 't',
          loading: false,
          error: null,
          verification: false,
          pendingEmail: null,
          codeSentAt: null,
        },
      },
      deps: { fetch: shopApi().fetch },
    });
    expect(await screen.findByLabelText('Full name', undefined, FIRST_LOAD)).toHaveValue('Layla Haddad');
    expect(screen.getByLabelText('E-mail')).toHaveValue('layla@example.com');
    expect(screen.getByLabelText('Phone')).toHaveValue('07700 900123');
    expect(screen.getByLabelText('Address line 1')).toHaveValue('12 Olive Street');
    expect(screen.getByLabelText('Postcode')).toHaveValue('LS1 4AB');
    expect(screen.getByLabelText('Billing postcode')).toHaveValue('LS1 4AB');
  });

  it("fills a returning customer's blanks from the last order, and saves the details for next time", async () => {
    const customer = {
      ...basket,
      auth: {
        userInfo: { email: 'layla@example.com', role: 'customer' as const },
        token: 't',
        loading: false,
        error: null,
        verification: false,
        pendingEmail: null,
        codeSentAt: null,
      },
    };
    const api = shopApi({
      'GET /api/user/profile/': { email: 'layla@example.com', role: 'customer', fullname: '', phone: '', address: '', addressLine1: '', addressLine2: '', town: '', postcode: '' },
      'GET /api/order/orderdetails/customer/order/': orderPage(
        [
          makeOrder({
            fullname: 'Layla Haddad',
            phone: '07700 900123',
            address: '12 Olive Street\nLeeds\nLS1 4AB',
            addressLine1: '12 Olive Street',
            addressLine2: '',
            town: 'Leeds',
            postcode: 'LS1 4AB',
          }),
        ],
        1,
        1,
      ),
      'PUT /api/user/profile/': ({ body }) => json({ email: 'layla@example.com', role: 'customer', ...(body as object) }),
      'POST /api/order/create/': json('o-new', 201),
      'GET /api/order/Orderdetails/o-new': makeOrder({ _id: 'o-new', total: 26.22 }),
    });
    const { user } = renderApp('/checkout', { preloadedState: customer, deps: { fetch: api.fetch } });
    await waitFor(() => expect(screen.getByLabelText('Address line 1')).toHaveValue('12 Olive Street'), FIRST_LOAD);
    expect(screen.getByLabelText('Town or city')).toHaveValue('Leeds');
    expect(screen.getByLabelText('Postcode')).toHaveValue('LS1 4AB');
    expect(screen.getByLabelText('Full name')).toHaveValue('Layla Haddad');
    expect(screen.getByLabelText('Phone')).toHaveValue('07700 900123');
    expect(screen.getByLabelText('Save these details to my account for next time')).toBeChecked();
    await typeCard(user, '4242 4242 4242 4242');
    await user.click(await screen.findByRole('button', { name: 'Pay £26.22' }));
    await screen.findByTestId('order-total');
    await waitFor(() => expect(api.calls.find((c) => c.method === 'PUT' && c.url.pathname === '/api/user/profile/')?.body).toEqual({
      fullname: 'Layla Haddad',
      phone: '07700 900123',
      addressLine1: '12 Olive Street',
      addressLine2: '',
      town: 'Leeds',
      postcode: 'LS1 4AB',
    }));
  });

  it('shows an address saved in one box, for the shopper to copy into its parts', async () => {
    const customer = {
      ...basket,
      auth: {
        userInfo: { email: 'layla@example.com', role: 'customer' as const, fullname: 'Layla Haddad', phone: '07700 900123', address: '12 Olive Street, Leeds LS1 4AB' },
        token: 't',
        loading: false,
        error: null,
        verification: false,
        pendingEmail: null,
        codeSentAt: null,
      },
    };
    renderApp('/checkout', { preloadedState: customer, deps: { fetch: shopApi().fetch } });
    expect(await screen.findByTestId('saved-address', undefined, FIRST_LOAD)).toHaveTextContent('Your saved address: 12 Olive Street, Leeds LS1 4AB');
    expect(screen.getByLabelText('Address line 1')).toHaveValue('');
  });

  it('says what changed when the total moved before paying, reads no card, and pays the new total on the next Pay', async () => {
    let prices = checkoutDrinks;
    const api = shopApi({
      'POST /api/order/quote/': quoteRoute(() => prices),
      'POST /api/order/create/': json('o-new', 201),
      'GET /api/order/Orderdetails/o-new': makeOrder({ _id: 'o-new', total: 33.73 }),
    });
    const { user } = renderApp('/checkout', { preloadedState: basket, deps: { fetch: api.fetch } });
    await screen.findByLabelText('Full name', undefined, FIRST_LOAD);
    await fillValid(user);
    const pay = await screen.findByRole('button', { name: 'Pay £26.22' });
    prices = { ...checkoutDrinks, 'p-cola': { name: 'Classic Cola', price: 18.76 } };
    await user.click(pay);
    const message = await screen.findByTestId('checkout-error');
    expect(message).toHaveTextContent('The total changed since you opened the checkout: nothing was charged.');
    const changes = within(screen.getByTestId('price-changes')).getAllByRole('listitem').map((item) => item.textContent);
    expect(changes).toEqual(['Classic Cola: £18.76 each, was £11.25', 'Total: £33.73, was £26.22']);
    await waitFor(() => expect(message).toHaveFocus());
    expect(fakeStripeCalls).toEqual([]);
    expect(api.calls.some((c) => c.url.pathname === '/api/order/create/')).toBe(false);
    expect(screen.getByTestId('total')).toHaveTextContent('£33.73');

    await user.click(screen.getByRole('button', { name: 'Pay £33.73' }));
    expect(await screen.findByTestId('order-total')).toHaveTextContent('£33.73');
    expect(api.calls.find((c) => c.url.pathname === '/api/order/create/')?.body).toMatchObject({ expectedTotal: 33.73 });
  });

  it('asks the date of birth for an age-restricted drink and refuses a buyer under the age before paying', async () => {
    const drinks = { ...checkoutDrinks, 'p-cola': { name: 'Night Shift', price: 11.25, restricted: true } };
    const api = shopApi({
      'POST /api/order/quote/': quoteRoute(drinks),
      'POST /api/order/create/': json('o-new', 201),
      'GET /api/order/Orderdetails/o-new': makeOrder({ _id: 'o-new', total: 26.22 }),
    });
    const { user } = renderApp('/checkout', { preloadedState: basket, deps: { fetch: api.fetch } });
    await screen.findByLabelText('Full name', undefined, FIRST_LOAD);
    const born = await screen.findByLabelText('Date of birth');
    expect(born).toHaveAccessibleDescription(/sold only to buyers aged 16 or over/);
    await fillValid(user);
    const young = new Date();
    young.setUTCFullYear(young.getUTCFullYear() - 15);
    await user.type(born, young.toISOString().slice(0, 10));
    await user.click(await screen.findByRole('button', { name: 'Pay £26.22' }));
    expect(born).toHaveAccessibleDescription(/You must be 16 or over to buy this basket/);
    await waitFor(() => expect(born).toHaveFocus());
    expect(fakeStripeCalls).toEqual([]);

    await user.clear(born);
    await user.type(born, '2001-04-30');
    await user.click(screen.getByRole('button', { name: 'Pay £26.22' }));
    await screen.findByTestId('order-total');
    expect(api.calls.find((c) => c.url.pathname === '/api/order/create/')?.body).toMatchObject({ dateOfBirth: '2001-04-30' });
  });
});
