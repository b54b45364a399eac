import { describe, expect, it } from 'vitest';
import { makeStore } from '../../app/store';
import { fakeFetch, json } from '../../testing/fakeFetch';
import { cola } from '../../testing/fixtures';
import { fetchProduct, productReloadRequested, selectProductState } from './productSlice';

describe('product', () => {
  it('loads one drink by id', async () => {
    const fake = fakeFetch({ 'GET /api/product/p-cola': cola });
    const store = makeStore(undefined, { fetch: fake.fetch });
    const done = store.dispatch(fetchProduct('p-cola'));
    expect(selectProductState(store.getState())).toMatchObject({ status: 'loading', id: 'p-cola', product: null });
    await done;
    expect(selectProductState(store.getState())).toMatchObject({ status: 'loaded', product: { name: 'Classic Cola' } });
  });

  it('stores a 404 message as the error', async () => {
    const fake = fakeFetch({ 'GET /api/product/nope': json({ message: 'Product not found' }, 404) });
    const store = makeStore(undefined, { fetch: fake.fetch });
    await store.dispatch(fetchProduct('nope'));
    expect(selectProductState(store.getState())).toMatchObject({ status: 'failed', error: 'Product not found' });
    store.dispatch(productReloadRequested());
    expect(selectProductState(store.getState()).reload).toBe(true);
  });

  it('drops an answer for a product the shopper already left', async () => {
    let release: (r: Response) => void = () => undefined;
    const fake = fakeFetch({
      'GET /api/product/p-slow': () =>
        new Promise<Response>((resolve) => {
          release = resolve;
        }),
      'GET /api/product/p-cola': cola,
    });
    const store = makeStore(undefined, { fetch: fake.fetch });
    const slow = store.dispatch(fetchProduct('p-slow'));
    await store.dispatch(fetchProduct('p-cola'));
    release(json({ ...cola, _id: 'p-slow', name: 'Slow' }));
    await slow;
    expect(selectProductState(store.getState())).toMatchObject({ id: 'p-cola', product: { name: 'Classic Cola' } });
  });
});
