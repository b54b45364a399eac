import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { cartLineFromProduct } from '../../../state/basket/cartLine';
import { initialCartState, type CartState } from '../../../state/basket/cartSlice';
import { cola, mango } from '../../../testing/fixtures';
import { renderApp, renderWithProviders } from '../../../testing/renderWithProviders';
import { json } from '../../../testing/fakeFetch';
import { paymentSettings } from '../../../testing/fakeStripe';
import { shopApi } from '../../../testing/shopApi';
import { CartPanel } from './CartPanel';

const withLines = (...lines: ReturnType<typeof cartLineFromProduct>[]): { cart: CartState } => ({
  cart: { ...initialCartState, cartItems: lines },
});

describe('CartPanel', () => {
  it('shows each line: image, name, pack label and its sum as "qty × price = line total"', async () => {
    renderWithProviders(<CartPanel isLoggedIn={false} onClose={vi.fn()} />, {
      preloadedState: withLines(cartLineFromProduct(mango, 2), cartLineFromProduct(cola)),
      deps: { fetch: shopApi().fetch },
    });
    const [first, second] = screen.getAllByTestId('cart-line');
    expect(within(first!).getByRole('img', { name: 'Mango Fizz' })).toHaveAttribute('src', '/uploads/mango.png');
    expect(first).toHaveTextContent('Mango Fizz');
    expect(first).toHaveTextContent('24 x 330ml');
    expect(within(first!).getByTestId('cart-line-total')).toHaveTextContent('2 × £4.99 = £9.98');
    expect(within(second!).getByTestId('cart-line-total')).toHaveTextContent('1 × £11.25 = £11.25');
    expect(screen.getByTestId('cart-goods')).toHaveTextContent('£21.23');
    expect(screen.getByRole('link', { name: 'check out' })).toHaveAttribute('href', '/checkout');
  });

  it('states delivery by the shop\'s terms, the total, and how far free delivery is', async () => {
    const api = shopApi({ 'GET /api/order/payment-settings/': { ...paymentSettings, deliveryFee: 3.95, freeDeliveryFrom: 30 } });
    const { user } = renderWithProviders(<CartPanel isLoggedIn={false} onClose={vi.fn()} />, {
      preloadedState: withLines(cartLineFromProduct(cola)),
      deps: { fetch: api.fetch },
    });
    // The figures come from the API: £3.95 below £30, never the checkout's old £4.99 and £40.
    expect(await screen.findByTestId('cart-delivery')).toHaveTextContent('£3.95');
    expect(screen.getByTestId('cart-total')).toHaveTextContent('£15.20');
    expect(screen.getByTestId('free-delivery')).toHaveTextContent('Add £18.75 more for free delivery.');
    const bar = screen.getByRole('progressbar', { name: 'Add £18.75 more for free delivery.' });
    expect(bar).toHaveAttribute('max', '30');
    expect(bar).toHaveAttribute('value', '11.25');
    expect(screen.getByText(/Delivery is £3.95, free for orders from £30.00 after any discount code/)).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Increase quantity of Classic Cola' }));
    await user.click(screen.getByRole('button', { name: 'Increase quantity of Classic Cola' }));
    expect(screen.getByTestId('cart-delivery')).toHaveTextContent('Free');
    expect(screen.getByTestId('cart-total')).toHaveTextContent('£33.75');
    expect(screen.getByTestId('free-delivery')).toHaveTextContent('Your order has free delivery.');
  });

  it('takes an applied code off before judging free delivery, as the server does', async () => {
    renderWithProviders(<CartPanel isLoggedIn={false} onClose={vi.fn()} />, {
      preloadedState: {
        ...withLines(cartLineFromProduct(cola, 4)),
        discount: { applied: { code: 'SAVE20', discount: 20 }, status: 'idle', error: null },
      },
      deps: { fetch: shopApi().fetch },
    });
    // £45 of drinks less 20% is £36: below £40, so delivery is charged.
    expect(await screen.findByTestId('cart-code')).toHaveTextContent('−£9.00');
    expect(screen.getByTestId('cart-delivery')).toHaveTextContent('£4.99');
    expect(screen.getByTestId('cart-total')).toHaveTextContent('£40.99');
    expect(screen.getByTestId('free-delivery')).toHaveTextContent('Add £4.00 more for free delivery.');
  });

  it('never makes up a delivery charge: without the terms it says checkout shows it, and tries again', async () => {
    let answer = () => json({ message: 'Try later' }, 503);
    const api = shopApi({ 'GET /api/order/payment-settings/': () => answer() });
    const { user } = renderWithProviders(<CartPanel isLoggedIn={false} onClose={vi.fn()} />, {
      preloadedState: withLines(cartLineFromProduct(mango)),
      deps: { fetch: api.fetch },
    });
    expect(await screen.findByText(/We could not load the delivery charge/)).toBeInTheDocument();
    expect(screen.getByTestId('cart-delivery')).toHaveTextContent('…');
    expect(screen.getByTestId('cart-total')).toHaveTextContent('…');
    answer = () => json(paymentSettings);
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('£9.98')).toBeInTheDocument();
  });

  it('steps the quantity up by 1 and down, never below 1, updating the total', async () => {
    const { user, store } = renderWithProviders(<CartPanel isLoggedIn={false} onClose={vi.fn()} />, {
      preloadedState: withLines(cartLineFromProduct(mango)),
      deps: { fetch: shopApi().fetch },
    });
    const up = screen.getByRole('button', { name: 'Increase quantity of Mango Fizz' });
    const down = screen.getByRole('button', { name: 'Decrease quantity of Mango Fizz' });
    expect(down).toHaveAttribute('aria-disabled', 'true');
    await user.click(down);
    expect(store.getState().cart.cartItems[0]?.qty).toBe(1);
    await user.click(up);
    await user.click(up);
    expect(store.getState().cart.cartItems[0]?.qty).toBe(3);
    expect(screen.getByTestId('cart-goods')).toHaveTextContent('£14.97');
    await user.click(down);
    expect(screen.getByTestId('cart-goods')).toHaveTextContent('£9.98');
    await user.click(down);
    await user.click(down);
    expect(store.getState().cart.cartItems[0]?.qty).toBe(1);
    expect(screen.getByTestId('cart-goods')).toHaveTextContent('£4.99');
  });

  it('removes a line; an empty basket says so and offers the shop and, when logged out, a log in', async () => {
    const onClose = vi.fn();
    const { user } = renderWithProviders(<CartPanel isLoggedIn={false} onClose={onClose} />, {
      preloadedState: withLines(cartLineFromProduct(mango)),
      deps: { fetch: shopApi().fetch },
    });
    await user.click(screen.getByRole('button', { name: 'Remove Mango Fizz' }));
    expect(screen.getByText('Your cart is empty')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Continue shopping' })).toHaveAttribute('href', '/shop/drinks/');
    expect(screen.getByText(/Have an account \?/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'log in' })).toHaveAttribute('href', '/drinks/login');
    expect(screen.queryByTestId('cart-total')).not.toBeInTheDocument();
  });

  it('offers no log in to a shopper who is logged in', () => {
    renderWithProviders(<CartPanel isLoggedIn onClose={vi.fn()} />, { deps: { fetch: shopApi().fetch } });
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
      deps: { fetch: shopApi().fetch },
    });
    const close = screen.getByRole('button', { name: 'Close basket' });
    const checkout = screen.getByRole('link', { name: 'check out' });
    await waitFor(() => expect(close).toHaveFocus());
    await user.tab({ shift: true });
    expect(checkout).toHaveFocus();
    await user.tab();
    expect(close).toHaveFocus();
  });

  it('closes when the dimmed page beside the drawer is clicked', async () => {
    const onClose = vi.fn();
    const { user } = renderWithProviders(<CartPanel isLoggedIn={false} onClose={onClose} />, { deps: { fetch: shopApi().fetch } });
    await user.click(screen.getByTestId('cart-backdrop'));
    expect(onClose).toHaveBeenCalledOnce();
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
