import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { userLoggedIn } from '../../../state/session/authSlice';
import { cartLineFromProduct } from '../../../state/basket/cartLine';
import { cartLineAdded } from '../../../state/basket/cartSlice';
import { cola, mango } from '../../../testing/fixtures';
import { renderApp } from '../../../testing/renderWithProviders';
import { shopApi } from '../../../testing/shopApi';

function scrollTo(y: number) {
  Object.defineProperty(window, 'scrollY', { value: y, configurable: true });
  window.dispatchEvent(new Event('scroll'));
}

describe('Header', () => {
  it('shows the official store banner and a logo that links home', async () => {
    renderApp('/shop/drinks/', { deps: { fetch: shopApi().fetch } });
    expect(screen.getByTestId('store-banner')).toHaveTextContent(/official online store/i);
    expect(screen.getByRole('link', { name: 'Palestine Drinks home' })).toHaveAttribute('href', '/');
    await screen.findByRole('heading', { level: 1, name: 'Our drinks' });
  });

  it('badges the basket with the number of cases in it', async () => {
    const { store } = renderApp('/', { deps: { fetch: shopApi().fetch } });
    const basket = screen.getByTestId('basket-button');
    expect(basket).toHaveAccessibleName('Basket, 0 items');
    expect(screen.queryByTestId('basket-badge')).not.toBeInTheDocument();
    act(() => {
      store.dispatch(cartLineAdded(cartLineFromProduct(mango)));
    });
    expect(screen.getByTestId('basket-badge')).toHaveTextContent('1');
    expect(basket).toHaveAccessibleName('Basket, 1 item');
    act(() => {
      store.dispatch(cartLineAdded(cartLineFromProduct(mango, 2)));
    });
    // Two cases of one drink are two items.
    expect(screen.getByTestId('basket-badge')).toHaveTextContent('2');
    expect(basket).toHaveAccessibleName('Basket, 2 items');
    act(() => {
      store.dispatch(cartLineAdded(cartLineFromProduct(cola, 3)));
    });
    expect(screen.getByTestId('basket-badge')).toHaveTextContent('5');
  });

  it('the burger toggles the links', async () => {
    const { user } = renderApp('/', { deps: { fetch: shopApi().fetch } });
    const burger = screen.getByRole('button', { name: 'Menu' });
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(burger).toHaveAttribute('aria-expanded', 'false');
    expect(burger).toHaveAttribute('aria-controls', nav.id);
    await user.click(burger);
    expect(burger).toHaveAttribute('aria-expanded', 'true');
    expect(nav).toHaveAttribute('data-open', 'true');
    expect(within(nav).getByRole('link', { name: 'Shop' })).toHaveAttribute('href', '/shop/drinks/');
    await user.click(burger);
    expect(nav).toHaveAttribute('data-open', 'false');
  });

  it('hides the navbar scrolling down and shows it scrolling up', async () => {
    renderApp('/', { deps: { fetch: shopApi().fetch } });
    const navbar = screen.getByTestId('navbar');
    expect(navbar).toHaveAttribute('data-hidden', 'false');
    scrollTo(400);
    await waitFor(() => expect(navbar).toHaveAttribute('data-hidden', 'true'));
    scrollTo(250);
    await waitFor(() => expect(navbar).toHaveAttribute('data-hidden', 'false'));
    scrollTo(0);
  });

  it('links the account icon to login, or to the account when logged in', async () => {
    const { store } = renderApp('/', { deps: { fetch: shopApi().fetch } });
    expect(screen.getByRole('link', { name: 'Log in' })).toHaveAttribute('href', '/drinks/login');
    act(() => {
      store.dispatch(userLoggedIn({ token: 't', userInfo: { email: 'shopper@example.com' } }));
    });
    expect(screen.getByRole('link', { name: 'Your account' })).toHaveAttribute('href', '/account/order');
  });

  it('marks the current page in the links', async () => {
    renderApp('/shop/drinks/', { deps: { fetch: shopApi().fetch } });
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(within(nav).getByRole('link', { name: 'Shop' })).toHaveAttribute('aria-current', 'page');
    expect(within(nav).getByRole('link', { name: 'Contact' })).not.toHaveAttribute('aria-current');
    await screen.findByRole('heading', { level: 1, name: 'Our drinks' });
  });
});
