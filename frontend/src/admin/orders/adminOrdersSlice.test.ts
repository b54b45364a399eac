import { describe, expect, it } from 'vitest';
import { makeStore } from '../../app/store';
import { fakeFetch, json } from '../../testing/fakeFetch';
import { orderPage, orders } from '../../testing/orderFixtures';
import {
  adminOrdersCleared,
  deleteOrder,
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
  });
  return { store: makeStore(undefined, { fetch: fake.fetch }), calls: fake.calls };
}

describe('admin orders paging', () => {
  it('page 1 replaces the list, later pages append, and the last page has no next', async () => {
    const { store: s } = store();
    await s.dispatch(fetchAdminOrders({ page: 1, search: '' }));
    expect(selectAdminOrders(s.getState())).toMatchObject({ pageNumber: 1, nextPage: 2, pages: 2 });
    expect(selectAdminOrders(s.getState()).products).toHaveLength(20);
    await s.dispatch(fetchAdminOrders({ page: 2, search: '' }));
    expect(selectAdminOrders(s.getState()).products).toHaveLength(25);
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

  it("an update or delete sets the reload flag; a refusal keeps the server's message", async () => {
    const { store: s } = store();
    expect(await s.dispatch(updateOrderStatus('o-0002', 'shipped'))).toBe(true);
    expect(selectAdminOrders(s.getState()).reload).toBe(true);
    expect(await s.dispatch(updateOrderStatus('o-0001', 'paid'))).toBe(false);
    expect(selectAdminOrders(s.getState()).actionError).toBe('An order cannot go from shipped back to paid');
    await s.dispatch(fetchAdminOrders({ page: 1, search: '' }));
    expect(await s.dispatch(deleteOrder('o-0003'))).toBe(true);
    expect(selectAdminOrders(s.getState())).toMatchObject({ reload: true, actionError: null });
  });
});
