import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { initialAuthState } from '../../state/session/authSlice';
import { fakeFetch } from '../../testing/fakeFetch';
import { renderWithProviders } from '../../testing/renderWithProviders';
import type { StockHold } from './dashboardData';
import { StockHolds } from './StockHolds';

const admin = { auth: { ...initialAuthState, token: 'jwt', userInfo: { email: 'admin@example.com', role: 'admin' } } };

const cola: StockHold = {
  _id: 'p-cola',
  name: 'Classic Cola',
  held: 15,
  cap: 15,
  stock: 15,
  orders: [
    { _id: 'o-1', number: 'PD-10001', email: 'made-up-1@example.com', client: '198.51.100.1', units: 10, holdUntil: '2026-11-22T10:05:00Z' },
    { _id: 'o-2', number: 'PD-10002', email: 'made-up-2@example.com', client: null, units: 5, holdUntil: '2026-11-22T10:09:00Z' },
  ],
};

describe('StockHolds', () => {
  it('shows each drink held, its cap and stock, and the orders holding it, in a captioned table', async () => {
    const api = fakeFetch({ 'GET /api/order/stock-holds/': [cola] });
    renderWithProviders(<StockHolds />, { preloadedState: admin, deps: { fetch: api.fetch } });
    const table = await screen.findByRole('table', { name: 'Units held by unpaid orders waiting for 3-D Secure, per drink' });
    expect(within(table).getAllByRole('columnheader').map((th) => th.textContent)).toEqual(['Drink', 'Held / cap', 'Stock', 'Orders']);
    const row = within(table).getByRole('row', { name: /Classic Cola/ });
    expect(within(row).getByRole('rowheader')).toHaveTextContent('Classic Cola');
    expect(row).toHaveTextContent('15 / 15');
    expect(within(row).getByRole('link', { name: 'PD-10001' })).toHaveAttribute('href', '/new/uk/order/o-1');
    const orders = within(row).getAllByRole('listitem').map((li) => li.textContent);
    expect(orders).toEqual([
      'PD-10001 made-up-1@example.com: 10 units, hold until 22/11/2026, 10:05 UTC',
      'PD-10002 made-up-2@example.com: 5 units, hold until 22/11/2026, 10:09 UTC',
    ]);
    expect(screen.getByRole('heading', { name: 'Held by unpaid orders' })).toBeInTheDocument();
    expect(api.calls.map((c) => c.headers.get('Authorization'))).toEqual(['Bearer jwt']);
  });

  it('says so when nothing is held', async () => {
    const api = fakeFetch({ 'GET /api/order/stock-holds/': [] });
    renderWithProviders(<StockHolds />, { preloadedState: admin, deps: { fetch: api.fetch } });
    expect(await screen.findByText('Nothing is held by unpaid orders.')).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });
});
