// A guest's order and the account made later with the same address: the confirmation offers the account
// and "Save these details"; "Your orders" lists the guest order and offers (or saves) its details.
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { json, type FakeCall } from '../../../testing/fakeFetch';
import { makeOrder, orderPage } from '../../../testing/orderFixtures';
import { renderApp } from '../../../testing/renderWithProviders';
import { shopApi } from '../../../testing/shopApi';
import { initialAuthState } from '../../../state/session/authSlice';

const parts = { addressLine1: '12 Olive Street', addressLine2: '', town: 'Leeds', postcode: 'LS6 2QT' };
const guestOrder = makeOrder({ _id: 'o-guest', number: 'PD-10007', fullname: 'Layla Haddad', phone: '07700 900123', address: '12 Olive Street\nLeeds\nLS6 2QT', ...parts });
const newcomer = { _id: 'layla@example.com', email: 'layla@example.com', role: 'customer', fullname: '', phone: '', address: '', createdAt: '2026-11-22T05:00:00Z' };

/** The order page answers its owner whole and anyone else without the contact details, as the server does. */
function orderApi(extra: Parameters<typeof shopApi>[0] = {}) {
  const { email: _email, phone: _phone, ...publicPart } = guestOrder;
  return shopApi({
    'GET /api/order/Orderdetails/o-guest': ({ headers }: FakeCall) => json(headers.get('authorization') === 'Bearer jwt' ? guestOrder : publicPart),
    'GET /api/order/orderdetails/customer/order/': orderPage([guestOrder], 1, 1),
    'GET /api/order/total/': { totalOrders: 1, totalPayments: guestOrder.total },
    'POST /api/user/login/': { message: 'If this address can log in, a code is on its way.' },
    'POST /api/user/verify/': json({ token: 'jwt', userInfo: newcomer }),
    'PUT /api/user/profile/': ({ body }: FakeCall) => json({ ...newcomer, ...(body as object) }),
    ...extra,
  });
}

const puts = (calls: FakeCall[]) => calls.filter((c) => c.method === 'PUT' && c.url.pathname === '/api/user/profile/').map((c) => c.body);

describe('a guest who makes an account', () => {
  it('creates the account from the confirmation and has the order’s details saved, announced with the focus', async () => {
    const api = orderApi();
    const { user, store } = renderApp({ pathname: '/myorder/o-guest', state: { placed: true } }, { deps: { fetch: api.fetch } });
    const offer = await screen.findByTestId('create-account', undefined, { timeout: 5000 });
    expect(within(offer).getByRole('checkbox', { name: /Save these details/ })).toBeChecked();
    await user.click(within(offer).getByRole('button', { name: 'Create an account' }));

    await user.type(await screen.findByRole('textbox', { name: 'E-mail address' }, { timeout: 5000 }), 'layla@example.com');
    await user.click(screen.getByRole('button', { name: 'Send me a code' }));
    await user.type(await screen.findByRole('textbox', { name: 'Code from the e-mail' }), '123456');
    await user.click(screen.getByRole('button', { name: 'Log in' }));

    const said = await screen.findByTestId('details-outcome', undefined, { timeout: 5000 });
    expect(said).toHaveTextContent('Your details from order PD-10007 are saved to your profile');
    await waitFor(() => expect(said).toHaveFocus());
    expect(puts(api.calls)).toEqual([{ fullname: 'Layla Haddad', phone: '07700 900123', ...parts }]);
    expect(store.getState().auth.userInfo?.postcode).toBe('LS6 2QT');
    // The guest order is under "Your orders".
    expect(await screen.findByRole('link', { name: 'Order PD-10007' })).toHaveAttribute('href', '/myorder/o-guest');
  });

  it('saves the one box of an order placed before addresses had parts', async () => {
    const oneBox = { ...guestOrder, addressLine1: undefined, addressLine2: undefined, town: undefined, postcode: undefined, address: '1 High St, Leeds LS1 1AA' };
    const api = orderApi({ 'GET /api/order/Orderdetails/o-guest': json(oneBox) });
    renderApp('/account/order?save=o-guest', {
      deps: { fetch: api.fetch },
      preloadedState: { auth: { ...initialAuthState, token: 'jwt', userInfo: newcomer } },
    });
    expect(await screen.findByTestId('details-outcome', undefined, { timeout: 5000 })).toHaveTextContent('Your details from order PD-10007 are saved');
    expect(puts(api.calls)).toEqual([
      { fullname: 'Layla Haddad', phone: '07700 900123', addressLine1: '', addressLine2: '', town: '', postcode: '', address: '1 High St, Leeds LS1 1AA' },
    ]);
  });

  it('saves nothing from an order placed with another address', async () => {
    const api = orderApi({ 'GET /api/order/Orderdetails/o-guest': json({ ...guestOrder, email: undefined, phone: undefined }) });
    renderApp('/account/order?save=o-guest', {
      deps: { fetch: api.fetch },
      preloadedState: { auth: { ...initialAuthState, token: 'jwt', userInfo: newcomer } },
    });
    expect(await screen.findByTestId('details-outcome', undefined, { timeout: 5000 })).toHaveTextContent('placed with another e-mail address');
    expect(puts(api.calls)).toEqual([]);
  });

  it('offers a guest order’s details to a profile without them, and saves them when asked', async () => {
    const api = orderApi();
    const { user } = renderApp('/account/order', {
      deps: { fetch: api.fetch },
      preloadedState: { auth: { ...initialAuthState, token: 'jwt', userInfo: { ...newcomer, fullname: 'Layla H' } } },
    });
    const offer = await screen.findByTestId('details-offer', undefined, { timeout: 5000 });
    expect(within(offer).getByRole('heading', { level: 2 })).toHaveTextContent('Use the details from order PD-10007?');
    // The profile's own name is kept; the blanks are filled from the order.
    expect(offer).toHaveTextContent('Layla H');
    await user.click(within(offer).getByRole('button', { name: 'Save these details' }));
    const said = await screen.findByTestId('details-outcome');
    await waitFor(() => expect(said).toHaveFocus());
    expect(offer).toHaveTextContent('12 Olive Street, Leeds, LS6 2QT');
    expect(puts(api.calls)).toEqual([{ fullname: 'Layla H', phone: '07700 900123', ...parts }]);
  });

  it('offers nothing once the profile has every detail', async () => {
    renderApp('/account/order', {
      deps: { fetch: orderApi().fetch },
      preloadedState: { auth: { ...initialAuthState, token: 'jwt', userInfo: { ...newcomer, fullname: 'L H', phone: '0770', addressLine1: '1 Mill Yard', town: 'Leeds', postcode: 'LS1 1AA' } } },
    });
    await screen.findByRole('link', { name: 'Order PD-10007' }, { timeout: 5000 });
    expect(screen.queryByTestId('details-offer')).not.toBeInTheDocument();
  });
});
