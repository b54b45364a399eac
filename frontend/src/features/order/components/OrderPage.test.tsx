import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { json } from '../../../testing/fakeFetch';
import { makeOrder, makeRefund } from '../../../testing/orderFixtures';
import { renderApp } from '../../../testing/renderWithProviders';
import { shopApi } from '../../../testing/shopApi';
import type { Order } from '../../../lib/orderTypes';

const FIRST_LOAD = { timeout: 5000 };

function openOrder(order: Order | (() => Order)) {
  const api = shopApi({ [`GET /api/order/Orderdetails/${makeOrder()._id}`]: () => json(typeof order === 'function' ? order() : order) });
  return { ...renderApp(`/myorder/${makeOrder()._id}`, { deps: { fetch: api.fetch } }), api };
}

describe('the order page tells the customer what happened to the payment', () => {
  it('paid: the card that paid', async () => {
    openOrder(makeOrder({ status: 'paid' }));
    const note = await screen.findByTestId('payment-note', undefined, FIRST_LOAD);
    expect(note).toHaveAttribute('data-state', 'paid');
    expect(note).toHaveTextContent('Paid by visa ending 4242.');
  });

  it('links the terms of sale as they stood when the order was placed', async () => {
    openOrder(makeOrder({ status: 'paid', termsVersion: 3 }));
    expect(await screen.findByTestId('order-terms', undefined, FIRST_LOAD)).toHaveAttribute('href', '/drinks/policies/terms?version=3');
  });

  it('shipped and delivered orders were paid too', async () => {
    openOrder(makeOrder({ status: 'delivered' }));
    expect(await screen.findByTestId('payment-note', undefined, FIRST_LOAD)).toHaveTextContent('Paid by visa ending 4242.');
  });

  it('pending: we are waiting for the bank, and Check again shows the outcome', async () => {
    let current = makeOrder({ status: 'pending' });
    const { user, api } = openOrder(() => current);
    const note = await screen.findByTestId('payment-note', undefined, FIRST_LOAD);
    expect(note).toHaveAttribute('data-state', 'pending');
    expect(note).toHaveTextContent('We are waiting for your bank to confirm the payment.');
    current = makeOrder({ status: 'paid' });
    await user.click(screen.getByRole('button', { name: 'Check again' }));
    expect(await screen.findByText('Paid by visa ending 4242.')).toBeInTheDocument();
    expect(api.calls.filter((c) => c.url.pathname.startsWith('/api/order/Orderdetails/')).length).toBeGreaterThanOrEqual(2);
  });

  it('expired: the payment did not complete and nothing was charged', async () => {
    openOrder(makeOrder({ status: 'expired' }));
    const note = await screen.findByTestId('payment-note', undefined, FIRST_LOAD);
    expect(note).toHaveAttribute('data-state', 'expired');
    expect(note).toHaveTextContent('Your payment did not complete');
    expect(note).toHaveTextContent('nothing was charged');
    expect(screen.queryByText(/Paid by/)).not.toBeInTheDocument();
  });

  it('refunded: the refund and its reference', async () => {
    openOrder(makeOrder({ status: 'refunded', refundId: 're_3Abc123' }));
    const note = await screen.findByTestId('payment-note', undefined, FIRST_LOAD);
    expect(note).toHaveAttribute('data-state', 'refunded');
    expect(note).toHaveTextContent('refunded to your visa ending 4242');
    expect(screen.getByTestId('refund-id')).toHaveTextContent('re_3Abc123');
  });

  it('partly refunded: paid, the amount back, and each refund with its credit note', async () => {
    openOrder(makeOrder({ status: 'delivered', refunded: 4.99, refunds: [makeRefund()] }));
    const note = await screen.findByTestId('payment-note', undefined, FIRST_LOAD);
    expect(note).toHaveAttribute('data-state', 'partly-refunded');
    expect(note).toHaveTextContent('Paid by visa ending 4242, partly refunded £4.99.');
    const refund = screen.getByTestId('order-refund');
    expect(refund).toHaveTextContent('£4.99 for 1 × Mango Fizz (refunded)');
    expect(screen.getByRole('link', { name: 'Credit note CN-10001' })).toHaveAttribute('href', '/order/o-1234abcd-0000/receipt?creditNote=re_1AbC');
    // The VAT receipt stays: the credit note is against it.
    expect(screen.getByRole('link', { name: 'Your VAT receipt' })).toBeInTheDocument();
  });

  it('a payment that came after the order was released: refunded, and the shopper told so', async () => {
    openOrder(makeOrder({ status: 'expired', refunded: 24.1, refundId: 're_late', refunds: [makeRefund({ _id: 're_late', amount: 24.1, late: true, lines: [], creditNote: null })] }));
    const note = await screen.findByTestId('payment-note', undefined, FIRST_LOAD);
    expect(note).toHaveAttribute('data-state', 'late-refund');
    expect(note).toHaveTextContent('after this order had been released');
    expect(note).toHaveTextContent('We refunded the £24.10 in full to your visa ending 4242');
    expect(screen.getByTestId('order-refund')).toHaveTextContent('£24.10 for the payment, in full (refunded)');
    expect(screen.queryByRole('link', { name: /Credit note/ })).not.toBeInTheDocument();
  });

  it('cancelled: cancelled, nothing charged', async () => {
    openOrder(makeOrder({ status: 'cancelled' }));
    const note = await screen.findByTestId('payment-note', undefined, FIRST_LOAD);
    expect(note).toHaveAttribute('data-state', 'cancelled');
    expect(note).toHaveTextContent('This order was cancelled.');
  });
});

describe('the bare id and the order link', () => {
  it('the bare id shows where the order stands and how to see the rest, never a name or a drink', async () => {
    const id = makeOrder()._id;
    const progress = {
      _id: id,
      view: 'progress',
      number: 'PD-10007',
      status: 'shipped',
      history: [
        { status: 'pending', at: '2026-11-02T10:00:00Z' },
        { status: 'paid', at: '2026-11-02T10:00:05Z' },
        { status: 'shipped', at: '2026-11-03T09:00:00Z' },
      ],
      carrier: 'royal-mail',
      trackingNumber: 'AB 1234 5678 9GB',
      trackingUrl: 'https://track.example/AB123456789GB',
      createdAt: '2026-11-02T10:00:00Z',
    };
    const api = shopApi({ [`GET /api/order/Orderdetails/${id}`]: progress });
    renderApp(`/myorder/${id}`, { deps: { fetch: api.fetch } });
    expect(await screen.findByTestId('order-progress-only', undefined, FIRST_LOAD)).toHaveTextContent('open the link in your order e-mail');
    expect(screen.getByTestId('order-number')).toHaveTextContent('PD-10007');
    expect(screen.getByTestId('order-tracking')).toHaveTextContent('Royal Mail tracking number AB 1234 5678 9GB');
    expect(screen.getByTestId('order-history-steps').children).toHaveLength(3);
    expect(screen.queryByTestId('order-line')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Buy again' })).not.toBeInTheDocument();
  });

  it("an order link's key is sent, and carried on to the receipt and the credit notes", async () => {
    const order = makeOrder({ status: 'delivered', refunded: 4.99, refunds: [makeRefund()] });
    const api = shopApi({ [`GET /api/order/Orderdetails/${order._id}`]: order });
    renderApp(`/myorder/${order._id}?key=1999999999.abc`, { deps: { fetch: api.fetch } });
    expect(await screen.findByRole('link', { name: 'Your VAT receipt' }, FIRST_LOAD)).toHaveAttribute(
      'href',
      `/order/${order._id}/receipt?key=1999999999.abc`,
    );
    expect(screen.getByRole('link', { name: 'Credit note CN-10001' })).toHaveAttribute(
      'href',
      `/order/${order._id}/receipt?creditNote=re_1AbC&key=1999999999.abc`,
    );
    const asked = api.calls.find((c) => c.url.pathname === `/api/order/Orderdetails/${order._id}`);
    expect(asked?.url.searchParams.get('key')).toBe('1999999999.abc');
  });
});
