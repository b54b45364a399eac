import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { RootState } from '../../app/store';
import { json } from '../../testing/fakeFetch';
import { cola, lemon, mango } from '../../testing/fixtures';
import { makeOrder, orderPage } from '../../testing/orderFixtures';
import { makeReview } from '../../testing/reviewFixtures';
import { renderApp } from '../../testing/renderWithProviders';
import { shopApi } from '../../testing/shopApi';
import { monthOf } from './AdminHome';

const FIRST_LOAD = { timeout: 5000 };
const admin: Partial<RootState> = {
  auth: { userInfo: { email: 'admin@example.com', role: 'admin' }, token: 'admin-token', loading: false, error: null, verification: false, pendingEmail: null, codeSentAt: null, showsubscription: true },
};
const month = (year: number, m: number, orders: number, payments: number) => ({
  _id: { year, month: m },
  totalOrders: orders,
  totalProductsSold: orders * 2,
  totalPayments: payments,
  totalPaid: payments + 5,
  totalRefunded: 5,
  totalRefunds: 1,
  totalVat: Math.round((payments / 6) * 100) / 100,
});

describe('monthOf', () => {
  it('finds this and last month across a new year, and zeros for a month without sales', () => {
    const results = [month(2027, 1, 4, 80), month(2026, 12, 9, 210.5)];
    const january = new Date('2027-01-15T10:00:00Z');
    expect(monthOf(results, january).totalOrders).toBe(4);
    expect(monthOf(results, january, 1).totalPayments).toBe(210.5);
    expect(monthOf(results, january, 2)).toMatchObject({ _id: { year: 2026, month: 11 }, totalOrders: 0 });
  });
});

const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3_600_000).toISOString();
/** Hours since today began (UTC), so "today" tests hold at any time of day. */
const hoursIntoToday = () => new Date().getUTCHours() + new Date().getUTCMinutes() / 60;

function dashboardApi(overrides: Parameters<typeof shopApi>[0] = {}) {
  const now = new Date();
  const lastMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
  const today = hoursIntoToday();
  return shopApi({
    'GET /api/order/results/': {
      results: [month(now.getUTCFullYear(), now.getUTCMonth() + 1, 3, 45.5), month(lastMonth.getUTCFullYear(), lastMonth.getUTCMonth() + 1, 7, 120)],
      emails: [],
    },
    'GET /api/product/': [{ ...mango, TheNumber: 40 }, { ...cola, TheNumber: 4 }, { ...lemon, TheNumber: 0 }],
    'GET /api/category/': [],
    // Newest first: two orders today (one paid, one pending), then one from yesterday on page 2.
    'GET /api/order': ({ url }) =>
      json(
        url.searchParams.get('pageNumber') === '1'
          ? orderPage(
              [
                makeOrder({ _id: 'o-today-2', number: 'PD-10003', status: 'pending', total: 10, createdAt: new Date().toISOString() }),
                makeOrder({ _id: 'o-today-1', number: 'PD-10002', status: 'paid', total: 24.1, createdAt: hoursAgo(today * 0.5) }),
              ],
              1,
              3,
            )
          : orderPage([makeOrder({ _id: 'o-old', createdAt: hoursAgo(today + 1) })], 2, 3),
      ),
    'GET /api/reviews': {
      product: [
        { ...makeReview(1, { createdAt: hoursAgo(1), rating: 2 }), email: 'a@example.com', productName: 'Classic Cola' },
        { ...makeReview(2, { createdAt: hoursAgo(24 * 3) }), email: 'b@example.com', productName: 'Mango Fizz' },
        { ...makeReview(3, { createdAt: hoursAgo(24 * 30) }), email: 'c@example.com', productName: 'Mango Fizz' },
      ],
      pages: 1,
      result: {},
    },
    'GET /api/order/holds/': [
      makeOrder({
        _id: 'o-held',
        number: 'PD-10009',
        onHold: true,
        holds: [{ kind: 'dispute', _id: 'dp_1', reason: 'fraudulent', amount: 24.1, openedAt: '2026-11-24T08:00:00Z', outcome: null, closedAt: null }],
      }),
    ],
    'GET /api/order/stock-holds/': [],
    'GET /api/subscription/mailings/': {
      product: [{ _id: 'm1', subject: 'Summer drinks', status: 'sent', createdAt: hoursAgo(48), lists: ['Newsletter'], recipients: 12, sent: 11, failed: 1, skipped: 0, bounced: 0, complained: 0 }],
      pages: 1,
      result: {},
    },
    ...overrides,
  });
}

describe('admin dashboard', () => {
  it("shows today's orders, this month's takings, the drinks at 5 or fewer, the week's reviews and the last mailing, with links", async () => {
    const api = dashboardApi();
    renderApp('/new/uk', { preloadedState: admin, deps: { fetch: api.fetch } });
    const today = await screen.findByTestId('today-orders', undefined, FIRST_LOAD);
    // The pending checkout is an attempt, not one of today's orders.
    await waitFor(() => expect(within(today).getByTestId('today-count')).toHaveTextContent('1 paid order'));
    expect(today).toHaveTextContent('£24.10 paid today');
    expect(within(today).getByTestId('today-attempts')).toHaveTextContent('1 other attempt');
    expect(within(today).queryByRole('link', { name: 'PD-10003' })).not.toBeInTheDocument();
    expect(within(today).getByRole('link', { name: 'PD-10002' })).toHaveAttribute('href', '/new/uk/order/o-today-1');
    const day = new Date().toISOString().slice(0, 10);
    expect(within(today).getByRole('link', { name: "Today's orders" })).toHaveAttribute('href', `/new/uk/order?from=${day}&to=${day}`);
    // The older order is on page 2: reading stopped there, and page 3 was never asked for.
    expect(api.calls.filter((c) => c.url.pathname === '/api/order').map((c) => c.url.searchParams.get('pageNumber'))).toEqual(['1', '2']);

    const stats = await screen.findByTestId('month-stats');
    expect(within(stats).getByText('£45.50')).toBeInTheDocument();
    expect(within(stats).getByText('last month 7')).toBeInTheDocument();

    expect(within(stats.parentElement as HTMLElement).getByText(/Paid £50.50, refunded £5.00 this month/)).toBeInTheDocument();

    const held = screen.getByTestId('held-orders');
    await waitFor(() => expect(within(held).getByTestId('held-count')).toHaveTextContent('1 order'));
    expect(within(held).getByRole('link', { name: 'PD-10009' })).toHaveAttribute('href', '/new/uk/order/o-held');
    expect(held).toHaveTextContent('Dispute (fraudulent) opened');

    const low = await screen.findByTestId('low-stock');
    const items = within(low).getAllByRole('listitem').map((li) => li.textContent);
    expect(items).toEqual([`${lemon.name} (${lemon.qty}): sold out`, `${cola.name} (${cola.qty}): 4 left`]);

    const reviews = screen.getByTestId('reviews-waiting');
    await waitFor(() => expect(within(reviews).getByTestId('reviews-count')).toHaveTextContent('2 reviews'));
    expect(within(reviews).getByRole('link', { name: 'Read them' }).getAttribute('href')).toMatch(/^\/new\/uk\/reviews\?from=\d{4}-\d{2}-\d{2}$/);

    expect(await screen.findByTestId('last-mailing-text')).toHaveTextContent('Summer drinks');
    expect(screen.getByTestId('last-mailing-text')).toHaveTextContent('sent, 11 of 12 sent, 1 failed');
  });

  it('fails one part with a retry and leaves the others', async () => {
    let fail = true;
    const api = dashboardApi({
      'GET /api/order/results/': json({ message: 'Try later' }, 500),
      'GET /api/product/': [{ ...mango, TheNumber: 40 }],
      'GET /api/reviews': () => (fail ? json({ message: 'The reviews are resting' }, 500) : json({ product: [], pages: 1, result: {} })),
    });
    const { user } = renderApp('/new/uk', { preloadedState: admin, deps: { fetch: api.fetch } });
    expect(await screen.findByText('We could not load the sales', undefined, FIRST_LOAD)).toBeInTheDocument();
    expect(await screen.findByText('Every drink has more than 5 units in stock.')).toBeInTheDocument();
    const reviews = screen.getByTestId('reviews-waiting');
    expect(await within(reviews).findByText('The reviews are resting')).toBeInTheDocument();
    fail = false;
    await user.click(within(reviews).getByRole('button', { name: /Try again/ }));
    await waitFor(() => expect(within(reviews).getByTestId('reviews-count')).toHaveTextContent('0 reviews'));
    await waitFor(() => expect(screen.getByTestId('today-count')).toHaveTextContent('1 paid order'));
  });
});
