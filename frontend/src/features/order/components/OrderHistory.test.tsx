import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { RootState } from '../../../app/store';
import { json } from '../../../testing/fakeFetch';
import { makeOrder, orderPage, orders } from '../../../testing/orderFixtures';
import { mango } from '../../../testing/fixtures';
import { renderApp } from '../../../testing/renderWithProviders';
import { shopApi } from '../../../testing/shopApi';

/** Lazy screens load their chunks on first use; a busy machine can take longer than the default 1 s. */
const FIRST_LOAD = { timeout: 5000 };

const customer: Partial<RootState> = {
  auth: { userInfo: { email: 'layla@example.com', role: 'customer' }, token: 'customer-token', loading: false, error: null, verification: false, pendingEmail: null, codeSentAt: null },
};

describe('/account/order', () => {
  it("lists the customer's orders with a token, 'Load more' appends, and shows the totals", async () => {
    const api = shopApi({
      'GET /api/order/orderdetails/customer/order/': ({ url }) =>
        json(url.searchParams.get('pageNumber') === '1' ? orderPage(orders(10), 1, 2) : orderPage(orders(3, 11), 2, 2)),
      'GET /api/order/total/': { totalOrders: 13, totalPayments: 313.3 },
    });
    const { user } = renderApp('/account/order', { preloadedState: customer, deps: { fetch: api.fetch } });
    const list = await screen.findByTestId('order-history', undefined, FIRST_LOAD);
    expect(within(list).getAllByRole('listitem')).toHaveLength(10);
    expect(await screen.findByTestId('order-totals')).toHaveTextContent('£313.30');
    expect(within(list).getAllByRole('link')[0]).toHaveAttribute('href', '/myorder/o-0001');
    await user.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(within(screen.getByTestId('order-history')).getAllByRole('listitem')).toHaveLength(13));
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
    const call = api.calls.find((c) => c.url.pathname === '/api/order/total/');
    expect(call?.headers.get('Authorization')).toBe('Bearer customer-token');
  });

  it('says so when there are no orders yet', async () => {
    const api = shopApi({
      'GET /api/order/orderdetails/customer/order/': orderPage([], 1, 1),
      'GET /api/order/total/': { totalOrders: 0, totalPayments: 0 },
    });
    renderApp('/account/order', { preloadedState: customer, deps: { fetch: api.fetch } });
    expect(await screen.findByText(/No orders yet/, undefined, FIRST_LOAD)).toBeInTheDocument();
  });
});

describe('/myorder/{id}', () => {
  it("shows the server's lines, totals, status and delivery details", async () => {
    const api = shopApi({ 'GET /api/order/Orderdetails/o-9': makeOrder({ _id: 'o-9', status: 'shipped' }) });
    renderApp('/myorder/o-9', { deps: { fetch: api.fetch } });
    expect(await screen.findByTestId('order-total', undefined, FIRST_LOAD)).toHaveTextContent('£24.10');
    expect(screen.getByTestId('order-status')).toHaveTextContent('shipped');
    expect(screen.getByTestId('order-number')).toHaveTextContent('PD-10001');
    expect(screen.getByTestId('order-history-steps')).toHaveTextContent('Paid');
    expect(screen.getByTestId('order-discount')).toHaveTextContent('£2.12');
    expect(screen.getAllByTestId('order-line')).toHaveLength(2);
    expect(screen.getByTestId('payment-note')).toHaveTextContent('Paid by visa ending 4242.');
    expect(screen.getByText('Card: visa ending 4242')).toBeInTheDocument();
    expect(screen.queryByText(/Thank you/)).not.toBeInTheDocument();
    expect(screen.getByTestId('order-vat')).toHaveTextContent('VAT included: £4.02 (at 20%)');
    expect(screen.getByRole('link', { name: 'Your VAT receipt' })).toHaveAttribute('href', '/order/o-9/receipt');
  });

  it('opens with an e-mailed link\'s key and shows the tracking', async () => {
    const api = shopApi({
      'GET /api/order/Orderdetails/o-7': makeOrder({
        _id: 'o-7',
        status: 'shipped',
        carrier: 'evri',
        trackingNumber: 'H01ABC',
        trackingUrl: 'https://www.evri.com/track/parcel/H01ABC',
        history: [
          { status: 'pending', at: '2026-11-22T10:00:00Z' },
          { status: 'paid', at: '2026-11-22T10:00:05Z' },
          { status: 'shipped', at: '2026-11-23T09:00:00Z' },
        ],
      }),
    });
    renderApp('/myorder/o-7?key=123.abc', { deps: { fetch: api.fetch } });
    expect(await screen.findByTestId('order-tracking', undefined, FIRST_LOAD)).toHaveTextContent('Evri tracking number H01ABC');
    expect(screen.getByRole('link', { name: 'Track your parcel' })).toHaveAttribute('href', 'https://www.evri.com/track/parcel/H01ABC');
    expect(screen.getByTestId('order-history-steps').querySelectorAll('li')).toHaveLength(3);
    const call = api.calls.find((c) => c.url.pathname === '/api/order/Orderdetails/o-7');
    expect(call?.url.searchParams.get('key')).toBe('123.abc');
  });

  it('buys again: the drinks still on sale go back in the basket at today\'s prices, the others are named', async () => {
    const api = shopApi({
      'GET /api/order/Orderdetails/o-9': makeOrder({ _id: 'o-9', status: 'delivered' }),
      'GET /api/product/p-mango': { ...mango, Discountprice: 5.49, price: 5.49, TheNumber: 1 },
      'GET /api/product/p-cola': json({ message: 'Product not found' }, 404),
    });
    const { user, store } = renderApp('/myorder/o-9', { deps: { fetch: api.fetch } });
    await user.click(await screen.findByRole('button', { name: 'Buy again' }, FIRST_LOAD));
    const outcome = await screen.findByTestId('buy-again-outcome');
    expect(outcome).toHaveTextContent("Added to your basket at today's prices: Mango Fizz");
    expect(outcome).toHaveTextContent('Could not be added: Classic Cola (no longer sold)');
    // Two were ordered, one is in stock: one, at today's price.
    expect(store.getState().cart.cartItems).toEqual([expect.objectContaining({ product: 'p-mango', qty: 1, price: 5.49 })]);
  });

  it('prints a VAT receipt for a paid order with the seller, the VAT and the net, and none for one never paid', async () => {
    const api = shopApi({
      'GET /api/order/Orderdetails/o-9': makeOrder({ _id: 'o-9' }),
      'GET /api/order/Orderdetails/o-10': makeOrder({ _id: 'o-10', status: 'expired' }),
    });
    renderApp('/order/o-9/receipt', { deps: { fetch: api.fetch } });
    expect(await screen.findByRole('heading', { name: 'VAT receipt' }, FIRST_LOAD)).toBeInTheDocument();
    expect(await screen.findByTestId('receipt-seller')).toHaveTextContent('Palestine Drinks');
    expect(screen.getByTestId('receipt-vat')).toHaveTextContent('£4.02');
    expect(screen.getByTestId('receipt-totals')).toHaveTextContent('Total excluding VAT£20.08');
    renderApp('/order/o-10/receipt', { deps: { fetch: api.fetch } });
    expect(await screen.findByTestId('no-receipt', undefined, FIRST_LOAD)).toBeInTheDocument();
  });

  it("shows the server's message for an unknown order, with 'Try again'", async () => {
    const api = shopApi({ 'GET /api/order/Orderdetails/nope': json({ message: 'Order not found' }, 404) });
    renderApp('/myorder/nope', { deps: { fetch: api.fetch } });
    expect(await screen.findByRole('alert', undefined, FIRST_LOAD)).toHaveTextContent('Order not found');
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });
});
