import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { initialAuthState, type UserInfo } from '../../state/session/authSlice';
import { json, type FakeCall } from '../../testing/fakeFetch';
import { renderWithProviders } from '../../testing/renderWithProviders';
import { shopApi } from '../../testing/shopApi';
import UsersScreen from './UsersScreen';

const person = (n: number, role = 'customer'): UserInfo => ({
  _id: `u${n}@example.com`,
  email: `u${n}@example.com`,
  role,
  fullname: `User ${n}`,
  createdAt: '2026-11-22T05:00:00Z',
});
const me: UserInfo = { email: 'admin@example.com', role: 'admin', fullname: 'Shop Admin' };
const admin = { auth: { ...initialAuthState, token: 'jwt', userInfo: me } };

function usersApi(overrides: Parameters<typeof shopApi>[0] = {}) {
  let deleted = false;
  return shopApi({
    'GET /api/user/lists': ({ url }: FakeCall) => {
      const page = url.searchParams.get('pageNumber');
      const first = [me, ...Array.from({ length: 19 }, (_, i) => person(i + 1))].filter((u) => !(deleted && u.email === 'u1@example.com'));
      return json(page === '1' ? { product: first, pages: 2, result: { next: { page: 2 } } } : { product: [person(20), person(21)], pages: 2, result: {} });
    },
    'PUT /api/user/role/u2@example.com': ({ body }: FakeCall) => json({ ...person(2), role: (body as { role: string }).role }),
    'DELETE /api/user/delete/u1@example.com': () => {
      deleted = true;
      return json({ message: 'deleted' });
    },
    ...overrides,
  });
}

describe('UsersScreen', () => {
  it('loads every page of users into one table, shown 20 at a time with a pager', async () => {
    const api = usersApi();
    const { user } = renderWithProviders(<UsersScreen />, { deps: { fetch: api.fetch }, preloadedState: admin });
    const list = await screen.findByTestId('users-list');
    await waitFor(() => expect(screen.getByTestId('table-count')).toHaveTextContent('1–20 of 22 users'));
    expect(within(list).getAllByTestId('user-row')).toHaveLength(20);
    const mine = within(list).getAllByTestId('user-row')[0] as HTMLElement;
    expect(mine).toHaveTextContent('admin@example.com (you)');
    expect(within(mine).queryByRole('button')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Next page' }));
    expect(await screen.findByText('u21@example.com')).toBeInTheDocument();
    expect(within(list).getAllByTestId('user-row')).toHaveLength(2);
    expect(screen.getByRole('button', { name: 'Next page' })).toBeDisabled();
  });

  it('filters by role and sorts by e-mail', async () => {
    const { user } = renderWithProviders(<UsersScreen />, { deps: { fetch: usersApi().fetch }, preloadedState: admin });
    await waitFor(() => expect(screen.getByTestId('table-count')).toHaveTextContent('of 22 users'));
    await user.selectOptions(screen.getByLabelText('Role'), 'admin');
    expect(screen.getAllByTestId('user-row')).toHaveLength(1);
    await user.selectOptions(screen.getByLabelText('Role'), '');
    await user.click(screen.getByRole('button', { name: /E-mail/ }));
    expect(screen.getByRole('columnheader', { name: /E-mail/ })).toHaveAttribute('aria-sort', 'ascending');
    expect(screen.getAllByTestId('user-row')[0]).toHaveTextContent('admin@example.com');
    expect(screen.getAllByTestId('user-row')[1]).toHaveTextContent('u1@example.com');
    expect(screen.getAllByTestId('user-row')[2]).toHaveTextContent('u2@example.com');
  });

  it('makes a customer an admin', async () => {
    const api = usersApi();
    const { user } = renderWithProviders(<UsersScreen />, { deps: { fetch: api.fetch }, preloadedState: admin });
    await user.click(await screen.findByRole('button', { name: 'Make admin: u2@example.com' }));
    expect(await screen.findByRole('button', { name: 'Make customer: u2@example.com' })).toBeInTheDocument();
    expect(api.calls.find((c) => c.method === 'PUT')?.body).toEqual({ role: 'admin' });
  });

  it('deletes only after the confirm, then lists again', async () => {
    const api = usersApi();
    const questions: string[] = [];
    let answer = false;
    const confirm = (question: string) => {
      questions.push(question);
      return answer;
    };
    const { user } = renderWithProviders(<UsersScreen confirm={confirm} />, { deps: { fetch: api.fetch }, preloadedState: admin });
    const remove = await screen.findByRole('button', { name: 'Delete u1@example.com' });
    await user.click(remove);
    expect(questions).toEqual(['Delete u1@example.com? This cannot be undone.']);
    expect(api.calls.some((c) => c.method === 'DELETE')).toBe(false);
    answer = true;
    await user.click(remove);
    await waitFor(() => expect(screen.getByTestId('table-count')).toHaveTextContent('1–20 of 21 users'));
    expect(screen.getByText('u2@example.com')).toBeInTheDocument();
    expect(screen.queryByText('u1@example.com')).not.toBeInTheDocument();
    expect(api.calls.filter((c) => c.url.pathname === '/api/user/lists')).toHaveLength(4);
  });

  it("shows the server's refusal", async () => {
    const api = usersApi({
      'PUT /api/user/role/u2@example.com': json({ message: 'No user has this e-mail' }, 404),
    });
    const { user } = renderWithProviders(<UsersScreen />, { deps: { fetch: api.fetch }, preloadedState: admin });
    await user.click(await screen.findByRole('button', { name: 'Make admin: u2@example.com' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('No user has this e-mail');
  });

  it('erases an address for a request by e-mail after the confirm, and lists the audit without the address', async () => {
    let audit: object[] = [];
    const api = usersApi({
      'POST /api/user/erasure/someone@example.com': () => {
        audit = [
          { at: '2026-11-26T10:00:00Z', by: 'admin admin@example.com', finished: true, waitingOrders: [{ _id: 'o1', number: 10001, status: 'shipped' }], erased: { orders: 2, reviews: 1, subscriptions: 1, deleted: 4 } },
          { at: '2026-11-25T10:00:00Z', by: 'the customer', finished: true, waitingOrders: [], erased: { orders: 1, reviews: 0, subscriptions: 0, deleted: 2 } },
        ];
        return json({ message: 'Everything the shop held about this address is erased.', finished: true, waitingOrders: [], erased: { orders: 2, reviews: 1, subscriptions: 1, deleted: 4 } });
      },
      'GET /api/user/erasures/': () => json(audit),
    });
    const asked: string[] = [];
    const { user } = renderWithProviders(<UsersScreen confirm={(q) => (asked.push(q), true)} />, { deps: { fetch: api.fetch }, preloadedState: admin });
    await user.type(await screen.findByLabelText('Address to erase (a request received by e-mail)'), 'someone@example.com');
    await user.click(screen.getByRole('button', { name: 'Erase' }));
    expect(await screen.findByTestId('erasure-outcome')).toHaveTextContent('erased');
    expect(asked[0]).toContain('someone@example.com');
    const table = await screen.findByTestId('erasure-audit');
    expect(within(table).getByText('admin admin@example.com')).toBeInTheDocument();
    expect(table).not.toHaveTextContent('someone@example.com');
    expect(within(table).getByText('Waits for order 10001 (shipped)')).toBeInTheDocument();
    expect(within(table).getByText('Done')).toBeInTheDocument();
  });

  it('finishes an erasure that was cut short', async () => {
    let audit: object[] = [{ at: '2026-11-26T10:00:00Z', by: 'the customer', finished: false, email: 'half@example.com', waitingOrders: [], erased: { orders: 1, reviews: 0, subscriptions: 0, deleted: 0 } }];
    const api = usersApi({
      'POST /api/user/erasure/half@example.com': () => {
        audit = [{ at: '2026-11-26T10:01:00Z', by: 'the customer', finished: true, waitingOrders: [], erased: { orders: 1, reviews: 0, subscriptions: 1, deleted: 5 } }];
        return json({ message: 'Everything the shop held about this address is erased.', finished: true, waitingOrders: [], erased: { orders: 1, reviews: 0, subscriptions: 1, deleted: 5 } });
      },
      'GET /api/user/erasures/': () => json(audit),
    });
    const { user } = renderWithProviders(<UsersScreen confirm={() => true} />, { deps: { fetch: api.fetch }, preloadedState: admin });
    const table = await screen.findByTestId('erasure-audit');
    expect(within(table).getByText(/Unfinished \(half@example.com\)/)).toBeInTheDocument();
    await user.click(within(table).getByRole('button', { name: 'Finish' }));
    expect(await screen.findByTestId('erasure-outcome')).toHaveTextContent('erased');
    await waitFor(() => expect(screen.getByTestId('erasure-audit')).toHaveTextContent('Done'));
  });
});
