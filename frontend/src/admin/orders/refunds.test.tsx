import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RootState } from '../../app/store';
import { json } from '../../testing/fakeFetch';
import { makeOrder, makeRefund, orderPage } from '../../testing/orderFixtures';
import { renderApp } from '../../testing/renderWithProviders';
import { shopApi } from '../../testing/shopApi';
import type { Order } from '../../lib/orderTypes';
import { reconciliationCsv, type Report } from '../results/Reconciliation';
import { linesValue, unitsLeft } from './RefundForm';

const FIRST_LOAD = { timeout: 5000 };
const admin: Partial<RootState> = {
  auth: { userInfo: { email: 'admin@example.com', role: 'admin' }, token: 'admin-token', loading: false, error: null, verification: false, pendingEmail: null, codeSentAt: null },
};

afterEach(() => {
  vi.unstubAllGlobals();
});

function orderView(first: Order, refund: (body: unknown) => Order | Response) {
  let order = first;
  const api = shopApi({
    'GET /api/order/Orderdetails/o-1234abcd-0000': () => json(order),
    'POST /api/order/refunds/o-1234abcd-0000': ({ body }) => {
      const next = refund(body);
      if (next instanceof Response) return next;
      order = next;
      return json(order.refunds.at(-1), 201);
    },
    'POST /api/order/holds/o-1234abcd-0000/release': ({ body }) => {
      order = makeOrder({ ...order, onHold: false, holds: (order.holds ?? []).map((h) => ({ ...h, outcome: `released: ${(body as { note: string }).note}`, closedAt: '2026-11-26T10:00:00Z' })) });
      return json(order);
    },
  });
  return { ...renderApp('/new/uk/order/o-1234abcd-0000', { preloadedState: admin, deps: { fetch: api.fetch } }), api };
}

describe('what a refund of lines comes to', () => {
  it('each unit at the price paid with the code off, the delivery, never more than is left', () => {
    const order = makeOrder();
    // 1 × £4.99 less 10% = £4.49 (half-up), plus £4.99 delivery.
    expect(linesValue(order, { 'p-mango': 1 }, true)).toBe(9.48);
    expect(linesValue({ ...order, refunded: 20 }, { 'p-cola': 1 }, true)).toBe(4.1);
    const refunded = { ...order, refunds: [makeRefund({ lines: [{ product: 'p-mango', name: 'Mango Fizz', qty: 1 }] }), makeRefund({ _id: 're_2', status: 'failed' })] };
    expect(unitsLeft(refunded)).toEqual({ 'p-mango': 1, 'p-cola': 1 });
  });
});

describe("the admin's order view refunds", () => {
  it('chosen lines and the delivery, restocked, with the reason: the body the API names, then the refund in the list', async () => {
    const confirm = vi.fn<(message?: string) => boolean>().mockReturnValue(true);
    vi.stubGlobal('confirm', confirm);
    const { user, api } = orderView(makeOrder({ status: 'delivered' }), () =>
      makeOrder({
        status: 'delivered',
        refunded: 9.48,
        refunds: [makeRefund({ amount: 9.48, delivery: true, by: 'admin@example.com' })],
      }),
    );
    const form = await screen.findByTestId('refund-form', undefined, FIRST_LOAD);
    expect(within(form).getByTestId('refund-left')).toHaveTextContent('£24.10');
    await user.click(within(form).getByLabelText('Chosen drinks or the delivery'));
    await user.clear(within(form).getByLabelText('Units of Mango Fizz to refund, up to 2'));
    await user.type(within(form).getByLabelText('Units of Mango Fizz to refund, up to 2'), '1');
    await user.click(within(form).getByLabelText('The delivery charge (£4.99)'));
    await user.click(within(form).getByLabelText(/Put the refunded drinks back on sale/));
    await user.type(within(form).getByLabelText('Reason (kept with the refund)'), 'Returned unopened');
    await user.click(within(form).getByRole('button', { name: 'Refund £9.48' }));
    expect(confirm).toHaveBeenCalledWith("Refund £9.48 to Layla Haddad's card?");
    await waitFor(() => expect(api.calls.some((c) => c.method === 'POST')).toBe(true));
    expect(api.calls.find((c) => c.method === 'POST')?.body).toEqual({
      lines: [{ product: 'p-mango', qty: 1 }],
      delivery: true,
      reason: 'Returned unopened',
      restock: true,
    });
    const refunds = await screen.findByTestId('admin-order-refunds');
    expect(within(refunds).getByTestId('admin-order-refund')).toHaveTextContent('£9.48');
    expect(within(refunds).getByRole('link', { name: 'CN-10001' })).toHaveAttribute('href', '/order/o-1234abcd-0000/receipt?creditNote=re_1AbC');
    expect(screen.getByTestId('admin-order-view-payment')).toHaveTextContent('partly refunded £9.48');
  });

  it('an amount, and the server refusing it says why', async () => {
    vi.stubGlobal('confirm', () => true);
    const { user, api } = orderView(makeOrder(), () => json({ message: 'amount: at most £24.10 of this order can still be refunded' }, 422));
    const form = await screen.findByTestId('refund-form', undefined, FIRST_LOAD);
    await user.click(within(form).getByLabelText('An amount'));
    await user.type(within(form).getByLabelText('Amount in pounds (up to £24.10)'), '5');
    await user.type(within(form).getByLabelText('Reason (kept with the refund)'), 'Goodwill');
    await user.click(within(form).getByRole('button', { name: 'Refund £5.00' }));
    expect(await screen.findByTestId('order-action-error')).toHaveTextContent('at most £24.10');
    expect(api.calls.find((c) => c.method === 'POST')?.body).toEqual({ lines: [], amount: 5, reason: 'Goodwill' });
  });

  it('a refund under way is shown and no second one offered', async () => {
    orderView(makeOrder({ refunding: 5 }), () => makeOrder());
    expect(await screen.findByTestId('refund-under-way', undefined, FIRST_LOAD)).toHaveTextContent('A refund of £5.00 was asked of Stripe');
    expect(screen.queryByTestId('refund-form')).not.toBeInTheDocument();
  });
});

describe("the admin's order view shows holds", () => {
  const warning = { kind: 'fraud-warning' as const, _id: 'issfr_1', reason: 'made_with_stolen_card', amount: 24.1, openedAt: '2026-11-24T08:00:00Z', outcome: null, closedAt: null };

  it('a fraud warning: do not ship, and release it once checked', async () => {
    const { user, api } = orderView(makeOrder({ onHold: true, holds: [warning] }), () => makeOrder());
    const held = await screen.findByTestId('order-on-hold', undefined, FIRST_LOAD);
    expect(held).toHaveTextContent('On hold: do not ship this order. Fraud warning (made_with_stolen_card) opened');
    const release = screen.getByTestId('release-hold');
    await user.type(within(release).getByLabelText('What you checked (kept with the hold)'), 'Called the customer');
    await user.click(within(release).getByRole('button', { name: 'Release the hold' }));
    await waitFor(() => expect(screen.queryByTestId('order-on-hold')).not.toBeInTheDocument());
    expect(api.calls.find((c) => c.url.pathname.endsWith('/release'))?.body).toEqual({ note: 'Called the customer' });
    expect(screen.getByTestId('order-holds')).toHaveTextContent('released: Called the customer');
  });

  it('a dispute is the bank to close: no release offered', async () => {
    orderView(makeOrder({ onHold: true, holds: [{ ...warning, kind: 'dispute', _id: 'dp_1', reason: 'fraudulent' }] }), () => makeOrder());
    expect(await screen.findByTestId('order-on-hold', undefined, FIRST_LOAD)).toHaveTextContent("Answer the dispute in Stripe's Dashboard");
    expect(screen.queryByTestId('release-hold')).not.toBeInTheDocument();
  });
});

describe("the admin's orders list", () => {
  it('says partly refunded £x and marks an order on hold', async () => {
    const api = shopApi({
      'GET /api/order': orderPage(
        [
          makeOrder({ _id: 'o-part', refunded: 4.99, refunds: [makeRefund()] }),
          makeOrder({ _id: 'o-held', onHold: true }),
        ],
        1,
        1,
      ),
    });
    renderApp('/new/uk/order', { preloadedState: admin, deps: { fetch: api.fetch } });
    const payments = await screen.findAllByTestId('admin-order-payment', undefined, FIRST_LOAD);
    const byState = payments.map((p) => [p.getAttribute('data-state'), p.textContent]);
    expect(byState).toContainEqual(['partly-refunded', 'partly refunded £4.99']);
    expect(screen.getByTestId('admin-order-on-hold')).toHaveTextContent('on hold: do not ship');
  });
});

describe('the sales results', () => {
  const report: Report = {
    month: '2026-11',
    shop: { payments: 2, paid: 30, refunds: 1, refunded: 5, latePayments: 0, lateReceived: 0, refundsFailed: 0, net: 25 },
    stripe: { charges: 2, charged: 30, refunds: 2, refunded: 6, refundsFailed: 0, fees: 0.85, disputes: 0, net: 23.15, payouts: 10 },
    differences: [
      {
        kind: 'missing-in-shop',
        what: 'refund',
        orderId: null,
        number: null,
        paymentIntent: 'pi_1',
        reference: 're_dash',
        shop: null,
        stripe: 1,
        note: 'Stripe holds this refund in 2026-11, the shop has none in the month',
      },
    ],
    lines: [
      { at: '2026-11-02T10:00:00Z', side: 'shop', kind: 'payment', orderId: 'o-1', number: 'PD-10001', paymentIntent: 'pi_1', reference: 'o-1', amount: 20, fee: 0, net: 20, vat: 3.33 },
      { at: '2026-11-02T10:00:01Z', side: 'stripe', kind: 'charge', orderId: null, number: null, paymentIntent: 'pi_1', reference: 'ch_1', amount: 20, fee: 0.5, net: 19.5, vat: 0 },
    ],
  };

  it('count paid, refunded and kept per month, and reconcile a month with Stripe with each difference and a CSV', async () => {
    const api = shopApi({
      'GET /api/order/results/': {
        results: [{ _id: { year: 2026, month: 11 }, totalProductsSold: 5, totalOrders: 2, totalPaid: 30, totalRefunded: 5, totalRefunds: 1, totalPayments: 25, totalVat: 4.17 }],
        emails: [],
      },
      'GET /api/order/reconciliation/2026-11': report,
    });
    const { user } = renderApp('/new/uk/result', { preloadedState: admin, deps: { fetch: api.fetch } });
    const [month] = await screen.findAllByTestId('results-month', undefined, FIRST_LOAD);
    expect(month).toHaveTextContent('£30.00');
    expect(month).toHaveTextContent('£5.00 (1)');
    expect(month).toHaveTextContent('£25.00');
    const box = screen.getByTestId('reconciliation');
    await user.clear(within(box).getByLabelText('Month'));
    await user.type(within(box).getByLabelText('Month'), '2026-11');
    await user.click(within(box).getByRole('button', { name: 'Reconcile' }));
    expect(await within(box).findByTestId('reconciliation-shop-net')).toHaveTextContent('£25.00');
    expect(within(box).getByTestId('reconciliation-stripe-net')).toHaveTextContent('£23.15');
    expect(within(box).getByTestId('reconciliation-difference')).toHaveTextContent('Not in the shop');
    expect(within(box).getByRole('button', { name: 'Download the month as CSV (2 lines)' })).toBeInTheDocument();
  });

  it("the month's CSV has one row per line of either side", () => {
    const rows = reconciliationCsv(report).replace('\uFEFF', '').trim().split('\r\n');
    expect(rows[0]).toBe('Date,Side,Kind,Order,Order id,PaymentIntent,Reference,Amount,Fee,Net,VAT');
    expect(rows[1]).toBe('2026-11-02T10:00:00Z,shop,payment,PD-10001,o-1,pi_1,o-1,20,0,20,3.33');
    expect(rows).toHaveLength(3);
  });
});
