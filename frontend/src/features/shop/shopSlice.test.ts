import { describe, expect, it } from 'vitest';
import { makeStore } from '../../app/store';
import { fakeFetch, offlineFetch } from '../../testing/fakeFetch';
import { drinks, page } from '../../testing/fixtures';
import { fetchDrinksPage, selectShop, shopReloadRequested } from './shopSlice';

function shopStore(pages: Record<string, ReturnType<typeof page>>) {
  const fake = fakeFetch({
    'GET /api/home/drinks/hom/uk/uk/': ({ url }) =>
      new Response(JSON.stringify(pages[`${url.searchParams.get('category') ?? ''}:${url.searchParams.get('pageNumber')}`])),
  });
  return { store: makeStore(undefined, { fetch: fake.fetch }), calls: fake.calls };
}

describe('shop list', () => {
  it('reads the initial state before any fetch (the slice loads with its screen)', () => {
    expect(selectShop(makeStore().getState())).toMatchObject({ status: 'idle', products: [], nextPage: null });
  });

  it('loads page 1, then appends page 2 on load more, following the paging rule', async () => {
    const { store, calls } = shopStore({ ':1': page(drinks(12), 1, 2), ':2': page(drinks(3, 13), 2, 2) });
    await store.dispatch(fetchDrinksPage({ page: 1 }));
    expect(selectShop(store.getState())).toMatchObject({ status: 'loaded', pageNumber: 1, pages: 2, nextPage: 2 });
    await store.dispatch(fetchDrinksPage({ page: 2 }));
    const shop = selectShop(store.getState());
    expect(shop.products).toHaveLength(15);
    expect(shop.nextPage).toBeNull();
    expect(calls.map((c) => c.url.searchParams.get('pageNumber'))).toEqual(['1', '2']);
  });

  it('page 1 replaces the list', async () => {
    const { store } = shopStore({ ':1': page(drinks(2), 1, 1) });
    await store.dispatch(fetchDrinksPage({ page: 1 }));
    await store.dispatch(fetchDrinksPage({ page: 1 }));
    expect(selectShop(store.getState()).products).toHaveLength(2);
  });

  it('a new category clears the list and asks for it', async () => {
    const { store, calls } = shopStore({ ':1': page(drinks(2), 1, 1), 'c-soda:1': page(drinks(1, 50), 1, 1) });
    await store.dispatch(fetchDrinksPage({ page: 1 }));
    const pending = store.dispatch(fetchDrinksPage({ page: 1, category: 'c-soda' }));
    expect(selectShop(store.getState()).products).toEqual([]);
    await pending;
    expect(selectShop(store.getState())).toMatchObject({ choice: { category: 'c-soda' }, products: [{ _id: 'p-50' }] });
    expect(calls[1]?.url.searchParams.get('category')).toBe('c-soda');
  });

  it('sends the order and filters, and a new order starts the list again', async () => {
    const { store, calls } = shopStore({ ':1': page(drinks(12), 1, 2), ':2': page(drinks(2, 13), 2, 2) });
    await store.dispatch(fetchDrinksPage({ page: 1, sort: 'price-asc', inStock: true, minPrice: '2', maxPrice: '9.5' }));
    await store.dispatch(fetchDrinksPage({ page: 2, sort: 'price-asc', inStock: true, minPrice: '2', maxPrice: '9.5' }));
    expect(selectShop(store.getState()).products).toHaveLength(14);
    const sent = calls[1]?.url.searchParams;
    expect([sent?.get('sort'), sent?.get('inStock'), sent?.get('minPrice'), sent?.get('maxPrice'), sent?.get('pageNumber')]).toEqual(['price-asc', 'true', '2', '9.5', '2']);
    expect([...(calls[0]?.url.searchParams.keys() ?? [])].sort()).toEqual(['inStock', 'maxPrice', 'minPrice', 'pageNumber', 'sort']);
    const pending = store.dispatch(fetchDrinksPage({ page: 2, sort: 'newest' }));
    expect(selectShop(store.getState()).products).toEqual([]); // a different list: page 2 of it cannot append
    await pending;
    // Only what differs from the defaults is sent.
    expect([...(calls[2]?.url.searchParams.keys() ?? [])].sort()).toEqual(['pageNumber', 'sort']);
  });

  it('an answer for an earlier choice is dropped', async () => {
    const { store } = shopStore({ ':1': page(drinks(3), 1, 1) });
    const first = store.dispatch(fetchDrinksPage({ page: 1, sort: 'rating' }));
    const second = store.dispatch(fetchDrinksPage({ page: 1, sort: 'newest' }));
    await Promise.all([first, second]);
    expect(selectShop(store.getState()).choice.sort).toBe('newest');
  });

  it('a failure keeps what is listed, stores the message, and a retry sets reload', async () => {
    const { store } = shopStore({ ':1': page(drinks(12), 1, 2) });
    await store.dispatch(fetchDrinksPage({ page: 1 }));
    const offline = makeStore(store.getState(), { fetch: offlineFetch });
    await offline.dispatch(fetchDrinksPage({ page: 2 }));
    expect(selectShop(offline.getState())).toMatchObject({ status: 'failed', error: 'not fund 404' });
    expect(selectShop(offline.getState()).products).toHaveLength(12);
    offline.dispatch(shopReloadRequested());
    expect(selectShop(offline.getState()).reload).toBe(true);
  });
});
