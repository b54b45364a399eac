// What a prerendered page waits for before React's first render (main.tsx): its chunk and its data, for the
// drink, category, shop and content pages, chosen by the router's own ranking; nothing for other paths.
import { describe, expect, it } from 'vitest';
import { makeStore } from './store';
import { preloadPage } from './pageRoutes';
import { shopApi } from '../testing/shopApi';

function storeWithCalls() {
  const api = shopApi();
  const calls: string[] = [];
  const fetch: typeof globalThis.fetch = (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    calls.push(url.pathname + url.search);
    return api.fetch(input, init);
  };
  return { store: makeStore(undefined, { fetch }), calls };
}

const at = (path: string) => {
  const url = new URL(path, 'http://shop.test');
  return { pathname: url.pathname, search: url.search };
};

describe('preloadPage', () => {
  it('loads a drink and the site info the food information names, into the store', async () => {
    const { store, calls } = storeWithCalls();
    expect(await preloadPage(store.dispatch, at('/drinks/p-mango'))).toBe(true);
    const state = store.getState() as unknown as { product: { id: string; status: string; product: { name: string } } };
    expect(state.product).toMatchObject({ id: 'p-mango', status: 'loaded', product: { name: 'Mango Fizz' } });
    expect(calls).toEqual(expect.arrayContaining(['/api/product/p-mango', '/api/connect/uk/palestine/connect/']));
  });

  it("loads a category's first page of drinks with the address's choice", async () => {
    const { store, calls } = storeWithCalls();
    expect(await preloadPage(store.dispatch, at('/shop/drinks/?category=c-1'))).toBe(true);
    expect(calls).toContain('/api/category/');
    expect(calls.some((call) => call.startsWith('/api/home/drinks/hom/uk/uk/') && call.includes('category=c-1'))).toBe(true);
    const state = store.getState() as unknown as { shop: { status: string } };
    expect(state.shop.status).toBe('loaded');
  });

  it('loads a policy, the about texts and the contact details', async () => {
    for (const [path, call] of [
      ['/drinks/policies/terms', '/api/_uk_home/palestine/show/details/website/terms'],
      ['/about/drinks-about-us', '/api/home_uk/palestine/about/show_result/'],
      ['/contact/drinks-contact/', '/api/contact/'],
    ] as const) {
      const { store, calls } = storeWithCalls();
      expect(await preloadPage(store.dispatch, at(path))).toBe(true);
      expect(calls).toContain(call);
    }
  });

  it.each(['/drinks/login', '/drinks/uk', '/drinks/review', '/checkout', '/myorder/0f9a7c2e', '/account/order', '/about/anything', '/contact/elsewhere/'])(
    '%s is not a prerendered page: nothing is loaded',
    async (path) => {
      const { store, calls } = storeWithCalls();
      expect(await preloadPage(store.dispatch, at(path))).toBe(false);
      expect(calls).toEqual([]);
    },
  );
});
