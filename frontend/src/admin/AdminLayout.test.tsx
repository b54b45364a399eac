import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { initialAuthState } from '../features/auth/authSlice';
import { renderApp } from '../testing/renderWithProviders';
import { shopApi } from '../testing/shopApi';

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

  it('sends an admin whose role was taken away to the login page', async () => {
    const api = shopApi({ 'GET /api/user/profile/': { ...admin, role: 'customer' } });
    const { store } = renderApp('/new/uk/order', {
      deps: { fetch: api.fetch },
      preloadedState: { auth: { ...initialAuthState, token: 'jwt', userInfo: admin } },
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Log in' })).toBeInTheDocument();
    expect(store.getState().auth.userInfo?.role).toBe('customer');
    expect(screen.getByRole('alert')).toHaveTextContent('Only admins can open the admin area');
  });

  it('logs out to the login page, with auth back to its initial values', async () => {
    const api = shopApi({ 'GET /api/user/profile/': admin });
    const { user, store } = renderApp('/new/uk/users', {
      deps: { fetch: api.fetch },
      preloadedState: { auth: { ...initialAuthState, token: 'jwt', userInfo: admin } },
    });
    await user.click(await screen.findByRole('button', { name: 'Log out' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Log in' })).toBeInTheDocument();
    expect(store.getState().auth).toEqual(initialAuthState);
    expect(screen.queryByRole('navigation', { name: 'Admin' })).not.toBeInTheDocument();
  });
});
