import { describe, expect, it } from 'vitest';
import { makeStore } from '../../app/store';
import { initialAuthState, userLoggedOut, type UserInfo } from '../../state/session/authSlice';
import { fakeFetch, json } from '../../testing/fakeFetch';
import { changeUserRole, deleteUser, fetchUsersPage, selectUsers, usersReloadRequested } from './usersSlice';

const person = (n: number, role = 'customer'): UserInfo => ({ _id: `u${n}@example.com`, email: `u${n}@example.com`, role, fullname: `User ${n}` });
const envelope = (users: UserInfo[], page: number, pages: number) => ({
  product: users,
  pages,
  result: page < pages ? { next: { page: page + 1 } } : {},
});
const admin = { auth: { ...initialAuthState, token: 'jwt', userInfo: { email: 'admin@example.com', role: 'admin' } } };

describe('users', () => {
  it('page 1 replaces, later pages append, and the paging rule ends the list', async () => {
    const api = fakeFetch({
      'GET /api/user/lists': ({ url }) =>
        json(url.searchParams.get('pageNumber') === '1' ? envelope([person(1), person(2)], 1, 2) : envelope([person(3)], 2, 2)),
    });
    const store = makeStore(admin, { fetch: api.fetch });
    await store.dispatch(fetchUsersPage(1));
    expect(selectUsers(store.getState())).toMatchObject({ status: 'loaded', pageNumber: 1, nextPage: 2 });
    await store.dispatch(fetchUsersPage(2));
    const users = selectUsers(store.getState());
    expect(users.products.map((u) => u.email)).toEqual(['u1@example.com', 'u2@example.com', 'u3@example.com']);
    expect(users).toMatchObject({ pageNumber: 2, nextPage: null });
    await store.dispatch(fetchUsersPage(1));
    expect(selectUsers(store.getState()).products).toHaveLength(2);
    expect(api.calls[0]?.url.searchParams.get('pageNumber')).toBe('1');
    expect(api.calls[0]?.headers.get('Authorization')).toBe('Bearer jwt');
  });

  it('a failure keeps the message; a retry sets the reload flag', async () => {
    const api = fakeFetch({ 'GET /api/user/lists': json({ message: 'Only an admin can do this' }, 403) });
    const store = makeStore(admin, { fetch: api.fetch });
    await store.dispatch(fetchUsersPage(1));
    expect(selectUsers(store.getState())).toMatchObject({ status: 'failed', error: 'Only an admin can do this' });
    store.dispatch(usersReloadRequested());
    expect(selectUsers(store.getState()).reload).toBe(true);
  });

  it("a role change puts the server's answer in place", async () => {
    const api = fakeFetch({
      'GET /api/user/lists': envelope([person(1), person(2)], 1, 1),
      'PUT /api/user/role/u2@example.com': person(2, 'admin'),
    });
    const store = makeStore(admin, { fetch: api.fetch });
    await store.dispatch(fetchUsersPage(1));
    await store.dispatch(changeUserRole('u2@example.com', 'admin'));
    expect(api.calls.at(-1)?.body).toEqual({ role: 'admin' });
    const users = selectUsers(store.getState());
    expect(users.products.map((u) => u.role)).toEqual(['customer', 'admin']);
    expect(users.busy).toEqual([]);
  });

  it('a delete asks for the list again; a refusal is kept as the action error', async () => {
    const api = fakeFetch({
      'DELETE /api/user/delete/u1@example.com': { message: 'deleted' },
      'DELETE /api/user/delete/admin@example.com': json({ message: 'You cannot delete yourself' }, 422),
    });
    const store = makeStore(admin, { fetch: api.fetch });
    await store.dispatch(deleteUser('u1@example.com'));
    expect(selectUsers(store.getState())).toMatchObject({ reload: true, busy: [], actionError: null });
    await store.dispatch(deleteUser('admin@example.com'));
    expect(selectUsers(store.getState()).actionError).toBe('You cannot delete yourself');
  });

  it('forgets the list on logout', async () => {
    const api = fakeFetch({ 'GET /api/user/lists': envelope([person(1)], 1, 1) });
    const store = makeStore(admin, { fetch: api.fetch });
    await store.dispatch(fetchUsersPage(1));
    store.dispatch(userLoggedOut());
    expect(selectUsers(store.getState()).products).toEqual([]);
  });
});
