// Every route in the spec's tables renders inside the layout; unknown paths render the 404 page (the shop
// overrides the spec's Home for them).
import { screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { renderApp } from '../testing/renderWithProviders';
import { shopApi } from '../testing/shopApi';
import { initialAuthState } from '../state/session/authSlice';

const customer = { auth: { ...initialAuthState, token: 't', userInfo: { email: 'shopper@example.com', role: 'customer' } } };
const admin = { auth: { ...initialAuthState, token: 't', userInfo: { email: 'admin@example.com', role: 'admin' } } };

async function expectPage(path: string, heading: RegExp | string, preloadedState = {}) {
  renderApp(path, { deps: { fetch: shopApi().fetch }, preloadedState });
  // A first visit loads the page's lazy chunk: allow a loaded two-core machine more than the default second.
  expect(await screen.findByRole('heading', { level: 1, name: heading }, { timeout: 5000 })).toBeInTheDocument();
  // Inside the layout: the navbar and the basket are there.
  expect(screen.getByTestId('navbar')).toBeInTheDocument();
  expect(screen.getByTestId('basket-button')).toBeInTheDocument();
}

describe('public routes', () => {
  it.each([
    ['/', /Crack one open/],
    ['/shop/drinks/', 'Our drinks'],
    ['/drinks/p-mango', 'Mango Fizz'],
    ['/drinks/p-mango?qty=2', 'Mango Fizz'],
    ['/about/drinks-about-us', 'About us'],
    ['/drinks/login', 'Log in'],
    ['/contact/drinks-contact/', 'Contact us'],
    ['/drinks/policies/p-1', 'Our policies'],
    ['/drinks/review', 'Customer Reviews'],
    ['/checkout', 'Checkout'],
    ['/myorder/0f9a7c2e', 'Your order'],
    ['/drinks/uk?search=mango', 'Results for “mango”'],
  ])('%s renders %s', async (path, heading) => {
    await expectPage(path, heading);
  });

  it.each([
    '/no/such/page/here',
    '/nowhere',
    '/shop',
    // Only the documented suffixes show About and Contact (spec section 2); other slugs are unknown paths.
    '/about/anything',
    '/about/-about-us',
    '/about/drinks-about-us-not',
    '/contact/whatever/',
    '/contact/-contact/',
    '/contact/drinks-about-us/',
  ])('unknown path %s renders the 404 page', async (path) => {
    await expectPage(path, 'Page not found');
    expect(screen.getByRole('link', { name: 'Go to the home page' })).toHaveAttribute('href', '/');
    expect(screen.getByRole('link', { name: 'Browse all drinks' })).toHaveAttribute('href', '/shop/drinks/');
    expect(document.querySelector('meta[name="robots"]')?.getAttribute('content')).toBe('noindex');
  });
});

describe('account wrapper', () => {
  it.each([
    ['/account/order', 'Your orders'],
    ['/account/profile', 'Your profile'],
  ])('%s shows %s inside the account wrapper when logged in', async (path, title) => {
    await expectPage(path, 'Your account', customer);
    expect(screen.getByRole('heading', { level: 2, name: title })).toBeInTheDocument();
    expect(screen.getByRole('navigation', { name: 'Account' })).toBeInTheDocument();
  });

  it('sends a logged-out visitor to the login page', async () => {
    await expectPage('/account/order', 'Log in');
  });
});

describe('admin area under /new/uk/', () => {
  // Every admin screen is a lazy chunk that Vitest transforms on first import, which can take seconds on a
  // two-core CI machine. Pay that once here, outside the per-test timeout, so the tests time the rendering.
  beforeAll(async () => {
    const screens = import.meta.glob('../admin/*/*Screen.tsx');
    await Promise.all([import('../admin/AdminArea'), import('../admin/dashboard/AdminHome'), ...Object.values(screens).map((load) => load())]);
  }, 120_000);

  it.each([
    ['/new/uk', 'Dashboard', 'Dashboard'],
    ['/new/uk/result', 'Sales results', 'Sales results'],
    ['/new/uk/about', 'About text', 'About text'],
    ['/new/uk/mailer', 'Mailer', 'Mailer'],
    ['/new/uk/products', 'Products', 'Products'],
    ['/new/uk/whoweare', 'Who we are', 'Who we are'],
    ['/new/uk/subscription', 'Subscriptions', 'Subscriptions'],
    ['/new/uk/reviews', 'Reviews', 'Reviews'],
    ['/new/uk/order', 'Orders', 'Orders'],
    ['/new/uk/show', 'Images', 'Images'],
    ['/new/uk/discount', 'Discount codes', 'Discount codes'],
    ['/new/uk/profile', 'Your profile', 'Profile'],
    ['/new/uk/users', 'Users', 'Users'],
    ['/new/uk/siteinfo', 'Site info', 'Site info'],
    ['/new/uk/policies', 'Policies', 'Policies'],
    ['/new/uk/links', 'Link entries', 'Link entries'],
    ['/new/uk/categories', 'Categories', 'Categories'],
  ])('%s shows the %s screen to an admin in the admin frame, titled "%s · Admin"', async (path, heading, title) => {
    renderApp(path, { deps: { fetch: shopApi().fetch }, preloadedState: admin });
    expect(await screen.findByRole('heading', { level: 1, name: 'Shop admin' }, { timeout: 5000 })).toBeInTheDocument();
    // The admin's own frame: none of the shop's navbar and basket; a way back to the shop instead.
    expect(screen.queryByTestId('navbar')).not.toBeInTheDocument();
    expect(screen.queryByTestId('basket-button')).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to the shop' })).toHaveAttribute('href', '/');
    expect(screen.getByRole('button', { name: 'Log out' })).toBeInTheDocument();
    // The admin screen is a lazy chunk: its first render can take over a second on a busy machine.
    const main = screen.getByRole('main');
    expect(await within(main).findByRole('heading', { level: 2, name: heading }, { timeout: 5000 })).toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe(`${title} · Admin · Palestine Drinks`));
  });

  it('sends a customer to the login page, which says the area is for admins', async () => {
    await expectPage('/new/uk/order', 'Log in', customer);
    expect(screen.getByRole('alert')).toHaveTextContent('Only admins can open the admin area');
    expect(screen.queryByRole('navigation', { name: 'Admin' })).not.toBeInTheDocument();
  });

  it('sends a logged-out visitor to the login page', async () => {
    await expectPage('/new/uk/users', 'Log in');
    expect(screen.getByText('Log in with an admin account to open the admin area.')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'E-mail address' })).toBeInTheDocument();
  });
});
