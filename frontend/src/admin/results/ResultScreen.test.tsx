import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { RootState } from '../../app/store';
import { renderApp } from '../../testing/renderWithProviders';
import { shopApi } from '../../testing/shopApi';

/** Lazy screens load their chunks on first use; a busy machine can take longer than the default 1 s. */
const FIRST_LOAD = { timeout: 5000 };

const admin: Partial<RootState> = {
  auth: { userInfo: { email: 'admin@example.com', role: 'admin' }, token: 'admin-token', loading: false, error: null, verification: false, pendingEmail: null, codeSentAt: null },
};

describe('admin results screen', () => {
  it('shows the monthly table in pounds, a chart and the e-mail list', async () => {
    const api = shopApi({
      'GET /api/order/results/': {
        results: [
          { _id: { year: 2026, month: 11 }, totalProductsSold: 12, totalOrders: 4, totalPayments: 123.45 },
          { _id: { year: 2026, month: 10 }, totalProductsSold: 3, totalOrders: 1, totalPayments: 20 },
        ],
        emails: ['a@example.com', 'b@example.com'],
      },
    });
    renderApp('/new/uk/result', { preloadedState: admin, deps: { fetch: api.fetch } });
    const rows = await screen.findAllByTestId('results-month', undefined, FIRST_LOAD);
    expect(rows[0]).toHaveTextContent('Nov 2026');
    expect(rows[0]).toHaveTextContent('£123.45');
    expect(screen.getByRole('img', { name: 'Payments per month' }).querySelectorAll('rect')).toHaveLength(2);
    expect(within(screen.getByTestId('results-emails')).getAllByRole('listitem')).toHaveLength(2);
  });
});
