import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { json, type FakeCall } from '../../../testing/fakeFetch';
import { renderApp } from '../../../testing/renderWithProviders';
import { shopApi } from '../../../testing/shopApi';
import { initialAuthState, type UserInfo } from '../../../state/session/authSlice';

const customer: UserInfo = { _id: 'shopper@example.com', email: 'shopper@example.com', role: 'customer', fullname: '', phone: '', address: '' };
const admin: UserInfo = { _id: 'admin@example.com', email: 'admin@example.com', role: 'admin', fullname: 'Shop Admin', phone: '', address: '' };

/** The shop, plus a login back end whose code is 123456 and whose user is `user`. */
function loginApi(user: UserInfo = customer, extra: Parameters<typeof shopApi>[0] = {}) {
  return shopApi({
    'POST /api/user/login/': { message: 'If this address can log in, a code is on its way.' },
    'POST /api/user/verify/': ({ body }: FakeCall) =>
      (body as { code: string }).code === '123456'
        ? json({ token: 'jwt', userInfo: user })
        : json({ message: 'That code is wrong: 4 tries left' }, 400),
    'GET /api/user/lists': { product: [admin], pages: 1, result: {} },
    ...extra,
  });
}

const posts = (calls: FakeCall[], path: string) => calls.filter((c) => c.method === 'POST' && c.url.pathname === path);

describe('LoginPage', () => {
  it('keeps an e-mail that breaks the rule in the browser', async () => {
    const api = loginApi();
    const { user } = renderApp('/drinks/login', { deps: { fetch: api.fetch } });
    await user.type(await screen.findByRole('textbox', { name: 'E-mail address' }), 'a@b.co');
    await user.click(screen.getByRole('button', { name: 'Send me a code' }));
    expect(screen.getByText('Enter your e-mail address, like name@example.com.')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'E-mail address' })).toHaveAttribute('aria-invalid', 'true');
    expect(posts(api.calls, '/api/user/login/')).toHaveLength(0);
  });

  it("shows the server's 429 on the e-mail step", async () => {
    const api = loginApi(customer, {
      'POST /api/user/login/': json({ message: 'Too many codes asked for this address: try again in 60 minutes' }, 429),
    });
    const { user } = renderApp('/drinks/login', { deps: { fetch: api.fetch } });
    await user.type(await screen.findByRole('textbox', { name: 'E-mail address' }), 'shopper@example.com');
    await user.click(screen.getByRole('button', { name: 'Send me a code' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Too many codes asked for this address');
    expect(screen.queryByRole('textbox', { name: 'Code from the e-mail' })).not.toBeInTheDocument();
  });

  it('asks for the code, keeps a short code in the browser, shows a wrong code as the server says, then logs in', async () => {
    const api = loginApi();
    const { user, store } = renderApp('/drinks/login', { deps: { fetch: api.fetch } });
    await user.type(await screen.findByRole('textbox', { name: 'E-mail address' }), ' shopper@example.com ');
    await user.click(screen.getByRole('button', { name: 'Send me a code' }));

    const code = await screen.findByRole('textbox', { name: 'Code from the e-mail' });
    expect(posts(api.calls, '/api/user/login/')[0]?.body).toEqual({ email: 'shopper@example.com' });
    expect(screen.getByText('shopper@example.com')).toBeInTheDocument();
    await waitFor(() => expect(code).toHaveFocus());
    expect(screen.getByRole('button', { name: /Send a new code in \d+ s/ })).toBeDisabled();

    await user.type(code, '12a3');
    expect(code).toHaveValue('123'); // only digits go in
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    expect(screen.getByText('Enter the 6-digit code from the e-mail.')).toBeInTheDocument();
    expect(posts(api.calls, '/api/user/verify/')).toHaveLength(0);

    await user.clear(code);
    await user.type(code, '000000');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('That code is wrong: 4 tries left');

    await user.clear(code);
    await user.type(code, '123456');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Your account' })).toBeInTheDocument();
    expect(await screen.findByRole('heading', { level: 2, name: 'Your orders' })).toBeInTheDocument();
    expect(store.getState().auth).toMatchObject({ token: 'jwt', userInfo: customer, verification: false });
  });

  it('returns an admin to the admin screen that sent them to log in', async () => {
    const api = loginApi(admin);
    const { user } = renderApp('/new/uk/users', { deps: { fetch: api.fetch } });
    expect(await screen.findByText('Log in with an admin account to open the admin area.')).toBeInTheDocument();
    await user.type(screen.getByRole('textbox', { name: 'E-mail address' }), 'admin@example.com');
    await user.click(screen.getByRole('button', { name: 'Send me a code' }));
    await user.type(await screen.findByRole('textbox', { name: 'Code from the e-mail' }), '123456');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Shop admin' })).toBeInTheDocument();
    expect(await screen.findByRole('heading', { level: 2, name: 'Users' })).toBeInTheDocument();
  });

  it('lands an admin who logs in from the login page itself on the dashboard', async () => {
    const api = loginApi(admin);
    const { user } = renderApp('/drinks/login', { deps: { fetch: api.fetch } });
    await user.type(await screen.findByRole('textbox', { name: 'E-mail address' }), 'admin@example.com');
    await user.click(screen.getByRole('button', { name: 'Send me a code' }));
    await user.type(await screen.findByRole('textbox', { name: 'Code from the e-mail' }), '123456');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Shop admin' })).toBeInTheDocument();
    expect(await screen.findByRole('heading', { level: 2, name: 'Dashboard' })).toBeInTheDocument();
  });

  it('sends a customer who came from the admin area to their orders instead', async () => {
    const api = loginApi(customer);
    const { user } = renderApp('/new/uk/', { deps: { fetch: api.fetch } });
    await user.type(await screen.findByRole('textbox', { name: 'E-mail address' }), 'shopper@example.com');
    await user.click(screen.getByRole('button', { name: 'Send me a code' }));
    await user.type(await screen.findByRole('textbox', { name: 'Code from the e-mail' }), '123456');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Your account' })).toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'Admin' })).not.toBeInTheDocument();
  });

  it('counts the resend cooldown down and resends once it is over', async () => {
    const api = loginApi();
    const waiting = { ...initialAuthState, verification: true, pendingEmail: 'shopper@example.com', codeSentAt: Date.now() - 50_500 };
    const first = renderApp('/drinks/login', { deps: { fetch: api.fetch }, preloadedState: { auth: waiting } });
    expect(await screen.findByRole('button', { name: 'Send a new code in 10 s' })).toBeDisabled();
    expect(await screen.findByRole('button', { name: 'Send a new code in 9 s' }, { timeout: 2000 })).toBeDisabled();
    first.unmount();

    const over = { ...waiting, codeSentAt: Date.now() - 61_000 };
    const { user } = renderApp('/drinks/login', { deps: { fetch: api.fetch }, preloadedState: { auth: over } });
    await user.click(await screen.findByRole('button', { name: 'Send a new code' }));
    expect(await screen.findByText('A new code is on its way. Use the newest one.')).toBeInTheDocument();
    expect(posts(api.calls, '/api/user/login/')[0]?.body).toEqual({ email: 'shopper@example.com' });
    expect(screen.getByRole('button', { name: /Send a new code in (60|59) s/ })).toBeDisabled();
  });

  it("'Use a different e-mail' goes back to the first step with the address filled in", async () => {
    const api = loginApi();
    const state = { ...initialAuthState, verification: true, pendingEmail: 'shopper@example.com', codeSentAt: Date.now() };
    const { user } = renderApp('/drinks/login', { deps: { fetch: api.fetch }, preloadedState: { auth: state } });
    await user.click(await screen.findByRole('button', { name: 'Use a different e-mail' }));
    expect(screen.getByRole('textbox', { name: 'E-mail address' })).toHaveValue('shopper@example.com');
  });

  it('says who is logged in, and logs out', async () => {
    const api = loginApi();
    const state = { ...initialAuthState, token: 'jwt', userInfo: customer };
    const { user, store } = renderApp('/drinks/login', { deps: { fetch: api.fetch }, preloadedState: { auth: state } });
    expect(await screen.findByText(/You are logged in as/)).toHaveTextContent('You are logged in as shopper@example.com.');
    await user.click(screen.getByRole('button', { name: 'Log out' }));
    expect(store.getState().auth).toEqual(initialAuthState);
    expect(await screen.findByRole('textbox', { name: 'E-mail address' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Log in' })).toHaveAttribute('href', '/drinks/login');
  });
});
