import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { cartLineFromProduct } from '../cartLine';
import { initialCartState, type CartState } from '../cartSlice';
import { cola, mango } from '../../../testing/fixtures';
import { renderApp, renderWithProviders } from '../../../testing/renderWithProviders';
import { shopApi } from '../../../testing/shopApi';
import { CartPanel } from './CartPanel';

const withLines = (...lines: ReturnType<typeof cartLineFromProduct>[]): { cart: CartState } => ({
  cart: { ...initialCartState, cartItems: lines },
});

describe('CartPanel', () => {
  it('shows each line: image, name, pack label and price in pounds', () => {
    renderWithProviders(<CartPanel isLoggedIn={false} onClose={vi.fn()} />, {
      preloadedState: withLines(cartLineFromProduct(mango, 2), cartLineFromProduct(cola)),
    });
    const [first, second] = screen.getAllByTestId('cart-line');
    expect(within(first!).getByRole('img', { name: 'Mango Fizz' })).toHaveAttribute('src', '/uploads/mango.png');
    expect(first).toHaveTextContent('Mango Fizz');
    expect(first).toHaveTextContent('24 x 330ml');
    expect(first).toHaveTextContent('£4.99');
    expect(second).toHaveTextContent('£11.25');
    expect(screen.getByTestId('cart-total')).toHaveTextContent('£21.23');
    expect(screen.getByRole('link', { name: 'check out' })).toHaveAttribute('href', '/checkout');
  });

  it('steps the quantity up by 1 and down, never below 1, updating the total', async () => {
    const { user, store } = renderWithProviders(<CartPanel isLoggedIn={false} onClose={vi.fn()} />, {
      preloadedState: withLines(cartLineFromProduct(mango)),
    });
    const up = screen.getByRole('button', { name: 'Increase quantity of Mango Fizz' });
    const down = screen.getByRole('button', { name: 'Decrease quantity of Mango Fizz' });
    expect(down).toHaveAttribute('aria-disabled', 'true');
    await user.click(down);
    expect(store.getState().cart.cartItems[0]?.qty).toBe(1);
    await user.click(up);
    await user.click(up);
    expect(store.getState().cart.cartItems[0]?.qty).toBe(3);
    expect(screen.getByTestId('cart-total')).toHaveTextContent('£14.97');
    await user.click(down);
    expect(screen.getByTestId('cart-total')).toHaveTextContent('£9.98');
    await user.click(down);
    await user.click(down);
    expect(store.getState().cart.cartItems[0]?.qty).toBe(1);
    expect(screen.getByTestId('cart-total')).toHaveTextContent('£4.99');
  });

  it('removes a line; an empty basket says so and offers the shop and, when logged out, a log in', async () => {
    const onClose = vi.fn();
    const { user } = renderWithProviders(<CartPanel isLoggedIn={false} onClose={onClose} />, {
      preloadedState: withLines(cartLineFromProduct(mango)),
    });
    await user.click(screen.getByRole('button', { name: 'Remove Mango Fizz' }));
    expect(screen.getByText('Your cart is empty')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Continue shopping' })).toHaveAttribute('href', '/shop/drinks/');
    expect(screen.getByText(/Have an account \?/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'log in' })).toHaveAttribute('href', '/drinks/login');
    expect(screen.queryByTestId('cart-total')).not.toBeInTheDocument();
  });

  it('offers no log in to a shopper who is logged in', () => {
    renderWithProviders(<CartPanel isLoggedIn onClose={vi.fn()} />);
    expect(screen.getByText('Your cart is empty')).toBeInTheDocument();
    expect(screen.queryByText(/Have an account/)).not.toBeInTheDocument();
  });

  it('opens from the basket button as a modal dialog that locks the page, and Escape closes it', async () => {
    const { user } = renderApp('/', { deps: { fetch: shopApi().fetch }, preloadedState: withLines(cartLineFromProduct(mango)) });
    const basket = screen.getByTestId('basket-button');
    await user.click(basket);
    const dialog = await screen.findByRole('dialog', { name: 'Your basket' });
    expect(dialog).toHaveAttribute('aria-modal', 'true');
    expect(basket).toHaveAttribute('aria-expanded', 'true');
    expect(document.body).toHaveAttribute('data-scroll-locked');
    await waitFor(() => expect(screen.getByRole('button', { name: 'Close basket' })).toHaveFocus());

    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(document.body).not.toHaveAttribute('data-scroll-locked');
    expect(basket).toHaveFocus();
  });

  it('keeps the focus in the panel when the focused line is removed, and Escape still closes', async () => {
    const { user } = renderApp('/', { deps: { fetch: shopApi().fetch }, preloadedState: withLines(cartLineFromProduct(mango)) });
    await user.click(screen.getByTestId('basket-button'));
    await user.click(await screen.findByRole('button', { name: 'Remove Mango Fizz' }));
    expect(screen.getByRole('button', { name: 'Close basket' })).toHaveFocus();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByTestId('basket-button')).toHaveFocus();
  });

  it('keeps Tab inside the panel', async () => {
    const { user } = renderWithProviders(<CartPanel isLoggedIn={false} onClose={vi.fn()} />, {
      preloadedState: withLines(cartLineFromProduct(mango)),
    });
    const close = screen.getByRole('button', { name: 'Close basket' });
    const checkout = screen.getByRole('link', { name: 'check out' });
    await waitFor(() => expect(close).toHaveFocus());
    await user.tab({ shift: true });
    expect(checkout).toHaveFocus();
    await user.tab();
    expect(close).toHaveFocus();
  });

  it('closes from its close button and hands focus back', async () => {
    const { user } = renderApp('/', { deps: { fetch: shopApi().fetch } });
    const basket = screen.getByTestId('basket-button');
    await user.click(basket);
    await user.click(await screen.findByRole('button', { name: 'Close basket' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(basket).toHaveFocus();
  });
});
