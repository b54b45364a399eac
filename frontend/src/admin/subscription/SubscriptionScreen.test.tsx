import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RootState } from '../../app/store';
import { json } from '../../testing/fakeFetch';
import { renderApp } from '../../testing/renderWithProviders';
import { shopApi } from '../../testing/shopApi';
import type { Subscriber } from './subscriptionSlice';

const FIRST_LOAD = { timeout: 5000 };
const admin: Partial<RootState> = {
  auth: { userInfo: { email: 'admin@example.com', role: 'admin' }, token: 'admin-token', loading: false, error: null, verification: false, pendingEmail: null, codeSentAt: null },
};

const subscriber = (n: number, lists = ['Newsletter']): Subscriber => ({
  _id: `id-${n}`,
  email: `reader${n}@example.com`,
  fullname: n === 1 ? 'Layla Haddad' : '',
  lists,
  createdAt: '2025-06-01T10:00:00Z',
  updatedAt: '2025-06-01T10:00:00Z',
});
const lists = [
  { name: 'Newsletter', count: 2 },
  { name: 'Offers and new drinks', count: 1 },
];

afterEach(() => vi.unstubAllGlobals());

describe('admin subscriptions screen', () => {
  it('shows the lists with their counts and every subscriber, filtered by list and searched by name', async () => {
    const api = shopApi({
      'GET /api/sub/': lists,
      'GET /api/subscription/': ({ url }) =>
        json(
          url.searchParams.get('pageNumber') === '2'
            ? { product: [subscriber(3)], pages: 2, result: {} }
            : { product: [subscriber(1, ['Newsletter', 'Offers and new drinks']), subscriber(2)], pages: 2, result: { next: { page: 2 } } },
        ),
    });
    renderApp('/new/uk/subscription', { preloadedState: admin, deps: { fetch: api.fetch } });
    expect(await screen.findByRole('heading', { name: 'Subscriptions' }, FIRST_LOAD)).toBeInTheDocument();
    const counts = await screen.findByTestId('mail-lists');
    expect(within(counts).getByText(/Offers and new drinks/).parentElement).toHaveTextContent('Offers and new drinks: 1 subscriber');
    await waitFor(() => expect(screen.getAllByTestId('subscriber')).toHaveLength(3));
    expect(screen.getAllByTestId('subscriber')[0]).toHaveTextContent('Newsletter, Offers and new drinks');
    const { user } = { user: (await import('@testing-library/user-event')).default.setup() };
    await user.selectOptions(screen.getByLabelText('List'), 'Offers and new drinks');
    expect(screen.getAllByTestId('subscriber')).toHaveLength(1);
    await user.selectOptions(screen.getByLabelText('List'), '');
    await user.type(screen.getByLabelText('Search by e-mail or name'), 'reader3');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    expect(screen.getAllByTestId('subscriber')).toHaveLength(1);
    expect(screen.getByTestId('subscriber')).toHaveTextContent('reader3@example.com');
  });

  it('deletes a subscriber only after the confirm, then reloads', async () => {
    let gone = false;
    const api = shopApi({
      'GET /api/sub/': lists,
      'GET /api/subscription/': () => json({ product: gone ? [subscriber(2)] : [subscriber(1), subscriber(2)], pages: 1, result: {} }),
      'DELETE /api/subscription/delete/id-1': () => {
        gone = true;
        return json({ message: 'The subscriber was removed' });
      },
    });
    const confirm = vi.fn().mockReturnValueOnce(false).mockReturnValueOnce(true);
    vi.stubGlobal('confirm', confirm);
    const { user } = renderApp('/new/uk/subscription', { preloadedState: admin, deps: { fetch: api.fetch } });
    const button = await screen.findByRole('button', { name: 'Delete reader1@example.com' }, FIRST_LOAD);
    await user.click(button);
    expect(api.calls.some((c) => c.method === 'DELETE')).toBe(false);
    await user.click(button);
    expect(confirm).toHaveBeenLastCalledWith('do you wnat delete\nDelete reader1@example.com? This cannot be undone.');
    await waitFor(() => expect(screen.getAllByTestId('subscriber')).toHaveLength(1));
  });

  it('says when there are no subscribers, and offers a retry when loading fails', async () => {
    let fail = true;
    const api = shopApi({
      'GET /api/sub/': lists,
      'GET /api/subscription/': () => (fail ? json({ message: 'Try later' }, 500) : json({ product: [], pages: 1, result: {} })),
    });
    const { user } = renderApp('/new/uk/subscription', { preloadedState: admin, deps: { fetch: api.fetch } });
    const alert = await screen.findByText('We could not load the subscribers', undefined, FIRST_LOAD);
    fail = false;
    await user.click(within(alert.closest('[role="alert"]') as HTMLElement).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('No subscribers yet')).toBeInTheDocument();
  });
});
