import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { json } from '../../../testing/fakeFetch';
import { makeOrder, makeRefund } from '../../../testing/orderFixtures';
import { renderApp } from '../../../testing/renderWithProviders';
import { shopApi } from '../../../testing/shopApi';
import type { Order } from '../../../lib/orderTypes';

const FIRST_LOAD = { timeout: 5000 };

function open(order: Order, path: string) {
  const api = shopApi({ [`GET /api/order/Orderdetails/${order._id}`]: () => json(order) });
  return renderApp(path, { deps: { fetch: api.fetch } });
}

const refunded = makeOrder({
  status: 'refunded',
  refunded: 24.1,
  refunds: [
    makeRefund(),
    makeRefund({ _id: 're_2', amount: 19.11, creditNote: { number: 'CN-10002', date: '2026-11-26T09:00:00Z', amount: 19.11, vat: 3.19, vatRate: 20 } }),
  ],
});

describe('the VAT receipt and its credit notes', () => {
  it('a refunded order keeps its receipt, with each credit note against it', async () => {
    open(refunded, '/order/o-1234abcd-0000/receipt');
    expect(await screen.findByTestId('receipt-vat', undefined, FIRST_LOAD)).toHaveTextContent('£4.02');
    const notes = screen.getByTestId('receipt-credit-notes');
    expect(notes).toHaveTextContent('CN-10001: £4.99');
    expect(screen.getByRole('link', { name: 'CN-10002' })).toHaveAttribute('href', '/order/o-1234abcd-0000/receipt?creditNote=re_2');
  });

  it("one refund's credit note: its number, date, amount and VAT", async () => {
    open(refunded, '/order/o-1234abcd-0000/receipt?creditNote=re_2');
    const note = await screen.findByTestId('credit-note', undefined, FIRST_LOAD);
    expect(screen.getByRole('heading', { name: 'Credit note CN-10002' })).toBeInTheDocument();
    expect(note).toHaveTextContent('Against the VAT receipt of order PD-10001');
    expect(screen.getByTestId('credit-note-totals')).toHaveTextContent('Refunded£19.11Excluding VAT£15.92VAT at 20%£3.19');
  });

  it('a refund the bank failed has no credit note, and an unknown one says so', async () => {
    const failed = makeOrder({ refunds: [makeRefund({ status: 'failed' })] });
    const { unmount } = open(failed, '/order/o-1234abcd-0000/receipt?creditNote=re_1AbC');
    expect(await screen.findByTestId('no-credit-note', undefined, FIRST_LOAD)).toHaveTextContent('the bank could not make it');
    unmount();
    open(failed, '/order/o-1234abcd-0000/receipt?creditNote=re_nope');
    expect(await screen.findByTestId('no-credit-note', undefined, FIRST_LOAD)).toHaveTextContent('This order has no such refund');
  });
});
