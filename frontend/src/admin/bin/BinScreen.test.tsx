import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { RootState } from '../../app/store';
import { json } from '../../testing/fakeFetch';
import { renderApp } from '../../testing/renderWithProviders';
import { shopApi } from '../../testing/shopApi';
import type { BinEntry } from './binData';

const FIRST_LOAD = { timeout: 5000 };
const admin: Partial<RootState> = {
  auth: { userInfo: { email: 'admin@example.com', role: 'admin' }, token: 'admin-token', loading: false, error: null, verification: false, pendingEmail: null, codeSentAt: null },
};
const entry = (id: string, label: string): BinEntry => ({ _id: id, label, deletedAt: '2026-11-20T10:00:00Z', expiresAt: '2026-12-20T10:00:00Z' });

describe('admin bin screen', () => {
  it('lists what each function keeps, restores a drink and reloads the bin', async () => {
    let drinks = [entry('d1', 'Orange Sparkle')];
    const api = shopApi({
      'GET /api/product/bin/': () => json(drinks),
      'GET /api/code/bin/': () => json([entry('SUMMER10', 'SUMMER10')]),
      'GET /api/reviews/bin/': () => json([]),
      'POST /api/product/restore/d1': () => {
        drinks = [];
        return json({ message: 'Orange Sparkle is back in the shop' });
      },
    });
    const { user } = renderApp('/new/uk/bin', { preloadedState: admin, deps: { fetch: api.fetch } });
    const drinksPart = await screen.findByTestId('bin-drinks', {}, FIRST_LOAD);
    expect(within(drinksPart).getByText('Orange Sparkle')).toBeInTheDocument();
    expect(within(screen.getByTestId('bin-codes')).getByText('SUMMER10', { selector: 'td' })).toBeInTheDocument();
    expect(within(screen.getByTestId('bin-reviews')).getByText('Nothing deleted in the last 30 days.')).toBeInTheDocument();
    expect(document.title).toMatch(/^Bin · Admin/);

    await user.click(within(drinksPart).getByRole('button', { name: 'Restore Orange Sparkle' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Orange Sparkle is back in the shop');
    await waitFor(() => expect(within(screen.getByTestId('bin-drinks')).getByText('Nothing deleted in the last 30 days.')).toBeInTheDocument());
    expect(api.calls.filter((c) => c.url.pathname === '/api/product/bin/')).toHaveLength(2);
  });

  it("says the server's refusal when a restore clashes", async () => {
    const api = shopApi({
      'GET /api/product/bin/': () => json([]),
      'GET /api/code/bin/': () => json([entry('SUMMER10', 'SUMMER10')]),
      'GET /api/reviews/bin/': () => json([]),
      'POST /api/code/restore/SUMMER10': () => json({ message: 'A discount code with this id exists again, or it was restored meanwhile: reload the bin' }, 409),
    });
    const { user } = renderApp('/new/uk/bin', { preloadedState: admin, deps: { fetch: api.fetch } });
    const codes = await screen.findByTestId('bin-codes', {}, FIRST_LOAD);
    await user.click(within(codes).getByRole('button', { name: 'Restore SUMMER10' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('exists again');
    expect(within(codes).getByText('SUMMER10', { selector: 'td' })).toBeInTheDocument();
  });
});
