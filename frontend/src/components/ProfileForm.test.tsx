import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { json, type FakeCall } from '../testing/fakeFetch';
import { renderApp } from '../testing/renderWithProviders';
import { shopApi } from '../testing/shopApi';
import { initialAuthState } from '../state/session/authSlice';

const me = { _id: 'shopper@example.com', email: 'shopper@example.com', role: 'customer', fullname: 'Layla H', phone: '', address: '', createdAt: '2026-11-22T05:00:00Z' };
const signedIn = { auth: { ...initialAuthState, token: 'jwt', userInfo: me } };

describe('profile screens', () => {
  it('shows the profile, puts a 422 beside its field, then saves', async () => {
    const api = shopApi({
      'GET /api/user/profile/': me,
      'PUT /api/user/profile/': ({ body }: FakeCall) => {
        const changes = body as { phone: string };
        return changes.phone.length < 10
          ? json({ message: 'phone must be at least 10 digits' }, 422)
          : json({ ...me, ...(body as object) });
      },
    });
    const { user, store } = renderApp('/account/profile', { deps: { fetch: api.fetch }, preloadedState: signedIn });
    // The account's lazy chunk loads first: a loaded machine needs more than a second.
    const name = await screen.findByRole('textbox', { name: 'Full name' }, { timeout: 5000 });
    expect(name).toHaveValue('Layla H');
    expect(screen.getByText('shopper@example.com', { selector: 'dd' })).toBeInTheDocument();
    expect(screen.getByText('22/11/2026')).toBeInTheDocument();

    const phone = screen.getByRole('textbox', { name: /Phone/ });
    await user.clear(name);
    await user.type(name, '  Layla Haddad ');
    await user.type(phone, '0113');
    await user.type(screen.getByRole('textbox', { name: 'Address line 1' }), '12 Park Row');
    await user.type(screen.getByRole('textbox', { name: 'Town or city' }), 'Leeds');
    await user.type(screen.getByRole('textbox', { name: 'Postcode' }), 'ls15hd');
    await user.click(screen.getByRole('button', { name: 'Save profile' }));
    expect(await screen.findByText('phone must be at least 10 digits')).toBeInTheDocument();
    expect(phone).toHaveAttribute('aria-invalid', 'true');
    expect(phone).toHaveAccessibleDescription(/phone must be at least 10 digits/);

    await user.type(phone, ' 496 0000');
    await user.click(screen.getByRole('button', { name: 'Save profile' }));
    expect(await screen.findByText('Your profile is saved.')).toBeInTheDocument();
    const put = api.calls.filter((c) => c.method === 'PUT').at(-1);
    expect(put?.body).toEqual({ fullname: 'Layla Haddad', phone: '0113 496 0000', addressLine1: '12 Park Row', addressLine2: '', town: 'Leeds', postcode: 'LS1 5HD' });
    expect(phone).not.toHaveAttribute('aria-invalid');
    expect(store.getState().auth.userInfo?.fullname).toBe('Layla Haddad');
  });

  it('shows an address saved in one box above its parts, and a postcode refused beside its field', async () => {
    const old = { ...me, address: '12 Park Row, Leeds LS1 5HD' };
    const api = shopApi({
      'GET /api/user/profile/': old,
      'PUT /api/user/profile/': json({ message: 'postcode must be a UK postcode, e.g. SW1A 1AA' }, 422),
    });
    const { user } = renderApp('/account/profile', { deps: { fetch: api.fetch }, preloadedState: signedIn });
    expect(await screen.findByTestId('saved-address', undefined, { timeout: 5000 })).toHaveTextContent('Saved before: 12 Park Row, Leeds LS1 5HD');
    await user.type(screen.getByRole('textbox', { name: 'Address line 1' }), '12 Park Row');
    await user.type(screen.getByRole('textbox', { name: 'Town or city' }), 'Leeds');
    const postcode = screen.getByRole('textbox', { name: 'Postcode' });
    await user.type(postcode, 'LS1');
    await user.click(screen.getByRole('button', { name: 'Save profile' }));
    expect(await screen.findByText('postcode must be a UK postcode, e.g. SW1A 1AA')).toBeInTheDocument();
    expect(postcode).toHaveAttribute('aria-invalid', 'true');
  });

  it('offers a retry when the profile does not load', async () => {
    let answer = json({ message: 'Try later' }, 500);
    const api = shopApi({ 'GET /api/user/profile/': () => answer });
    const { user } = renderApp('/account/profile', { deps: { fetch: api.fetch }, preloadedState: signedIn });
    expect(await screen.findByRole('alert')).toHaveTextContent('Try later');
    answer = json(me);
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('textbox', { name: 'Full name' })).toHaveValue('Layla H');
  });

  it('logs out on token failed and the account sends the visitor to log in', async () => {
    const api = shopApi({ 'GET /api/user/profile/': json({ message: 'token failed' }, 401) });
    let reloads = 0;
    const { store } = renderApp('/account/profile', { deps: { fetch: api.fetch, reload: () => (reloads += 1) }, preloadedState: signedIn });
    expect(await screen.findByRole('heading', { level: 1, name: 'Log in' }, { timeout: 5000 })).toBeInTheDocument();
    expect(store.getState().auth).toEqual(initialAuthState);
    expect(reloads).toBe(1);
  });

  it('the admin profile screen is the same form', async () => {
    const admin = { ...me, email: 'admin@example.com', _id: 'admin@example.com', role: 'admin', fullname: 'Shop Admin' };
    const api = shopApi({ 'GET /api/user/profile/': admin });
    renderApp('/new/uk/profile', {
      deps: { fetch: api.fetch },
      preloadedState: { auth: { ...initialAuthState, token: 'jwt', userInfo: admin } },
    });
    // Three lazy chunks deep (the admin frame, its area, the screen): a loaded machine needs more than a second.
    expect(await screen.findByRole('textbox', { name: 'Full name' }, { timeout: 5000 })).toHaveValue('Shop Admin');
  });
});
