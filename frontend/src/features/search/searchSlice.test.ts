import { describe, expect, it } from 'vitest';
import { makeStore } from '../../app/store';
import { fakeFetch } from '../../testing/fakeFetch';
import { drinks, page } from '../../testing/fixtures';
import { fetchSearch, searchReloadRequested, selectSearch } from './searchSlice';

describe('search', () => {
  it('sends the text and reads the answer under comment', async () => {
    const fake = fakeFetch({ 'GET /api/home/search/uk/palestinedrinks': { comment: page(drinks(2), 1, 3) } });
    const store = makeStore(undefined, { fetch: fake.fetch });
    await store.dispatch(fetchSearch({ query: 'mango & lime', page: 1 }));
    expect(fake.calls[0]?.url.searchParams.get('search')).toBe('mango & lime');
    expect(fake.calls[0]?.url.search).toContain('search=mango+%26+lime');
    expect(selectSearch(store.getState())).toMatchObject({ status: 'loaded', query: 'mango & lime', nextPage: 2 });
  });

  it('ignores the answer to a search the shopper already replaced', async () => {
    let release: (r: Response) => void = () => undefined;
    const slow = new Promise<Response>((resolve) => {
      release = resolve;
    });
    const fake = fakeFetch({
      'GET /api/home/search/uk/palestinedrinks': ({ url }) =>
        url.searchParams.get('search') === 'old' ? slow : new Response(JSON.stringify({ comment: page(drinks(1, 9), 1, 1) })),
    });
    const store = makeStore(undefined, { fetch: fake.fetch });
    const old = store.dispatch(fetchSearch({ query: 'old', page: 1 }));
    await store.dispatch(fetchSearch({ query: 'new', page: 1 }));
    release(new Response(JSON.stringify({ comment: page(drinks(5), 1, 1) })));
    await old;
    expect(selectSearch(store.getState())).toMatchObject({ query: 'new', products: [{ _id: 'p-9' }] });
  });

  it('has an empty loaded state when nothing matches, and a reload flag', async () => {
    const fake = fakeFetch({ 'GET /api/home/search/uk/palestinedrinks': { comment: { product: [], pages: 1, result: {} } } });
    const store = makeStore(undefined, { fetch: fake.fetch });
    await store.dispatch(fetchSearch({ query: 'zzz', page: 1 }));
    expect(selectSearch(store.getState())).toMatchObject({ status: 'loaded', products: [], nextPage: null });
    store.dispatch(searchReloadRequested());
    expect(selectSearch(store.getState()).reload).toBe(true);
  });
});
