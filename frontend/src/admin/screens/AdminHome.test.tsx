import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { RootState } from '../../app/store';
import { json } from '../../testing/fakeFetch';
import { cola, lemon, mango } from '../../testing/fixtures';
import { renderApp } from '../../testing/renderWithProviders';
import { shopApi } from '../../testing/shopApi';
import { monthOf } from './AdminHome';

const FIRST_LOAD = { timeout: 5000 };
const admin: Partial<RootState> = {
  auth: { userInfo: { email: 'admin@example.com', role: 'admin' }, token: 'admin-token', loading: false, error: null, verification: false, pendingEmail: null, codeSentAt: null },
};
const month = (year: number, m: number, orders: number, payments: number) => ({
  _id: { year, month: m },
  totalOrders: orders,
  totalProductsSold: orders * 2,
  totalPayments: payments,
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

describe('admin dashboard', () => {
  it("shows this month's figures beside last month's, and the drinks running low", async () => {
    const now = new Date();
    const lastMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
    const api = shopApi({
      'GET /api/order/results/': {
        results: [month(now.getUTCFullYear(), now.getUTCMonth() + 1, 3, 45.5), month(lastMonth.getUTCFullYear(), lastMonth.getUTCMonth() + 1, 7, 120)],
        emails: [],
      },
      'GET /api/product/': [{ ...mango, TheNumber: 40 }, { ...cola, TheNumber: 4 }, { ...lemon, TheNumber: 0 }],
      'GET /api/category/': [],
    });
    renderApp('/new/uk', { preloadedState: admin, deps: { fetch: api.fetch } });
    const stats = await screen.findByTestId('month-stats', undefined, FIRST_LOAD);
    expect(within(stats).getByText('£45.50')).toBeInTheDocument();
    expect(within(stats).getByText('last month 7')).toBeInTheDocument();
    const low = await screen.findByTestId('low-stock');
    const items = within(low).getAllByRole('listitem').map((li) => li.textContent);
    expect(items).toEqual([`${lemon.name} (${lemon.qty}): sold out`, `${cola.name} (${cola.qty}): 4 left`]);
  });

  it('fails one part with a retry and leaves the other', async () => {
    const api = shopApi({
      'GET /api/order/results/': json({ message: 'Try later' }, 500),
      'GET /api/product/': [{ ...mango, TheNumber: 40 }],
      'GET /api/category/': [],
    });
    renderApp('/new/uk', { preloadedState: admin, deps: { fetch: api.fetch } });
    expect(await screen.findByText('We could not load the sales', undefined, FIRST_LOAD)).toBeInTheDocument();
    expect(await screen.findByText('Every drink has more than 10 units in stock.')).toBeInTheDocument();
  });
});

