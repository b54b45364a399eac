import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { initialAuthState } from '../state/session/authSlice';
import { renderApp } from '../testing/renderWithProviders';
import { shopApi } from '../testing/shopApi';

/** The login page's chunk (the shop's routes) loads on first use: a busy machine can take over a second. */
const FIRST_LOAD = { timeout: 5000 };
const admin = { email: 'admin@example.com', role: 'admin', fullname: 'Shop Admin' };

describe('AdminLayout', () => {
  it('says who is logged in and links every admin screen', async () => {
    const api = shopApi({ 'GET /api/user/profile/': admin });
    renderApp('/new/uk/', { deps: { fetch: api.fetch }, preloadedState: { auth: { ...initialAuthState, token: 'jwt', userInfo: admin } } });
    const nav = await screen.findByRole('navigation', { name: 'Admin' });
    expect(screen.getByText(/Logged in as/)).toHaveTextContent('Logged in as admin@example.com');
    const hrefs = Array.from(nav.querySelectorAll('a'), (a) => a.getAttribute('href'));
    const children = ['result', 'about', 'mailer', 'products', 'whoweare', 'subscription', 'reviews', 'order', 'show', 'discount', 'profile', 'users'];
    expect(hrefs).toEqual(expect.arrayContaining(['/new/uk', ...children.map((child) => `/new/uk/${child}`)]));
  });

  it("is the admin's own frame: a way back to the shop, no shop navbar, and a Menu button for narrow screens", async () => {
    const api = shopApi({ 'GET /api/user/profile/': admin });
    const { user } = renderApp('/new/uk/', { deps: { fetch: api.fetch }, preloadedState: { auth: { ...initialAuthState, token: 'jwt', userInfo: admin } } });
    const nav = await screen.findByRole('navigation', { name: 'Admin' }, FIRST_LOAD);
    expect(screen.getByRole('link', { name: 'Back to the shop' })).toHaveAttribute('href', '/');
    expect(screen.queryByTestId('navbar')).not.toBeInTheDocument();
    const menu = screen.getByRole('button', { name: 'Menu' });
    expect(menu).toHaveAttribute('aria-expanded', 'false');
    expect(menu).toHaveAttribute('aria-controls', nav.id);
    await user.click(menu);
    expect(menu).toHaveAttribute('aria-expanded', 'true');
    // Choosing a screen closes the menu again.
    await user.click(within(nav).getByRole('link', { name: 'Users' }));
    expect(menu).toHaveAttribute('aria-expanded', 'false');
  });

  it('sends an admin whose role was taken away to the login page', async () => {
    const api = shopApi({ 'GET /api/user/profile/': { ...admin, role: 'customer' } });
    const { store } = renderApp('/new/uk/order', {
      deps: { fetch: api.fetch },
      preloadedState: { auth: { ...initialAuthState, token: 'jwt', userInfo: admin } },
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Log in' }, FIRST_LOAD)).toBeInTheDocument();
    expect(store.getState().auth.userInfo?.role).toBe('customer');
    expect(screen.getByRole('alert')).toHaveTextContent('Only admins can open the admin area');
  });

  it('logs out to the login page, with auth back to its initial values', async () => {
    const api = shopApi({ 'GET /api/user/profile/': admin });
    const { user, store } = renderApp('/new/uk/users', {
      deps: { fetch: api.fetch },
      preloadedState: { auth: { ...initialAuthState, token: 'jwt', userInfo: admin } },
    });
    await user.click(await screen.findByRole('button', { name: 'Log out' }, FIRST_LOAD));
    expect(await screen.findByRole('heading', { level: 1, name: 'Log in' }, FIRST_LOAD)).toBeInTheDocument();
    expect(store.getState().auth).toEqual(initialAuthState);
    expect(screen.queryByRole('navigation', { name: 'Admin' })).not.toBeInTheDocument();
  });
});
