import { describe, expect, it } from 'vitest';
import { makeStore } from '../../app/store';
import { fakeFetch, json } from '../../testing/fakeFetch';
import { orderPage, orders } from '../../testing/orderFixtures';
import {
  adminOrdersCleared,
  archiveOrder,
  deleteOrder,
  movedNotice,
  fetchAdminOrders,
  selectAdminOrders,
  updateOrderStatus,
} from './adminOrdersSlice';

function store() {
  const fake = fakeFetch({
    'GET /api/order': ({ url }) => {
      const page = Number(url.searchParams.get('pageNumber'));
      const search = url.searchParams.get('search');
      if (search) return json(orderPage(orders(1, 100), 1, 1));
      return json(page === 1 ? orderPage(orders(20), 1, 2) : orderPage(orders(5, 21), 2, 2));
    },
    'PUT /api/order/update/o-0001': json({ message: 'An order cannot go from shipped back to paid' }, 422),
    'PUT /api/order/update/o-0002': ({ body }) => json({ ...orders(1, 2)[0], ...(body as object) }),
    'DELETE /api/order/delete/o-0003': json({ message: 'The order was deleted' }),
    'PUT /api/order/archive/o-0003': ({ body }) =>
      json({ ...orders(1, 3)[0], archivedAt: (body as { archived: boolean }).archived ? '2026-11-30T10:00:00Z' : null }),
  });
  return { store: makeStore(undefined, { fetch: fake.fetch }), calls: fake.calls };
}

describe('admin orders paging', () => {
  it('page 1 replaces the list, later pages append from where the last ended, and the last page has no next', async () => {
    const { store: s, calls } = store();
    await s.dispatch(fetchAdminOrders({ page: 1, search: '' }));
    expect(selectAdminOrders(s.getState())).toMatchObject({ pageNumber: 1, nextPage: 2, pages: 2 });
    expect(calls.at(-1)?.url.searchParams.get('cursor')).toBeNull();
    const twentieth = orders(20)[19];
    expect(selectAdminOrders(s.getState()).cursor).toBe(`${twentieth!.createdAt}#${twentieth!._id}`);
    expect(selectAdminOrders(s.getState()).products).toHaveLength(20);
    await s.dispatch(fetchAdminOrders({ page: 2, search: '' }));
    expect(calls.at(-1)?.url.searchParams.get('cursor')).toBe(`${twentieth!.createdAt}#${twentieth!._id}`);
    expect(selectAdminOrders(s.getState()).products).toHaveLength(25);
    expect(selectAdminOrders(s.getState()).cursor).toBeNull();
    expect(selectAdminOrders(s.getState())).toMatchObject({ pageNumber: 2, nextPage: null });
    await s.dispatch(fetchAdminOrders({ page: 1, search: '' }));
    expect(selectAdminOrders(s.getState()).products).toHaveLength(20);
  });

  it('a new search restarts at page 1 and replaces the list, sending the search text', async () => {
    const { store: s, calls } = store();
    await s.dispatch(fetchAdminOrders({ page: 1, search: '' }));
    await s.dispatch(fetchAdminOrders({ page: 1, search: 'Customer 100' }));
    expect(calls.at(-1)?.url.searchParams.get('search')).toBe('Customer 100');
    expect(selectAdminOrders(s.getState()).products.map((o) => o._id)).toEqual(['o-0100']);
  });

  it('clearing resets the page to 1 and empties the list, and asks for a reload', async () => {
    const { store: s } = store();
    await s.dispatch(fetchAdminOrders({ page: 1, search: 'Customer 100' }));
    s.dispatch(adminOrdersCleared());
    expect(selectAdminOrders(s.getState())).toMatchObject({ products: [], pageNumber: 1, nextPage: null, search: '', reload: true });
  });

  it("an update, archive or delete changes the row in place and says so, without a reload; a refusal keeps the server's message", async () => {
    const { store: s } = store();
    await s.dispatch(fetchAdminOrders({ page: 1, search: '' }));
    const [first, second, third] = orders(3);
    expect(await s.dispatch(updateOrderStatus(second!, 'shipped'))).toBe(true);
    let state = selectAdminOrders(s.getState());
    expect(state.products.find((o) => o._id === 'o-0002')?.status).toBe('shipped');
    expect(state.notice).toBe('Order PD-10001 is now shipped.');
    expect(state.reload).toBe(false);
    expect(state.products).toHaveLength(20);

    expect(await s.dispatch(updateOrderStatus(first!, 'paid'))).toBe(false);
    expect(selectAdminOrders(s.getState()).actionError).toBe('An order cannot go from shipped back to paid');
    expect(selectAdminOrders(s.getState()).notice).toBeNull();

    expect(await s.dispatch(archiveOrder(third!, true))).toBe(true);
    state = selectAdminOrders(s.getState());
    expect(state.products.find((o) => o._id === 'o-0003')?.archivedAt).toBe('2026-11-30T10:00:00Z');
    expect(state.notice).toMatch(/^Order PD-10001 is archived/);

    expect(await s.dispatch(deleteOrder(third!))).toBe(true);
    state = selectAdminOrders(s.getState());
    expect(state.products.map((o) => o._id)).not.toContain('o-0003');
    expect(state).toMatchObject({ reload: false, actionError: null, notice: 'Order PD-10001 is deleted.' });
  });

  it('says a refund in money and name', () => {
    expect(movedNotice(orders(1)[0]!, { status: 'refunded' })).toBe("Order PD-10001 is cancelled and £24.10 is refunded to Customer 1's card.");
  });
});
