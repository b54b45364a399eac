import { describe, expect, it, vi } from 'vitest';
import { makeStore } from '../../app/store';
import { fakeFetch, json, offlineFetch } from '../../testing/fakeFetch';
import { homePayload } from '../../testing/fixtures';
import homeSlice, { fetchHome, homeReloadRequested, homeRequested, initialHomeState, selectHome } from './homeSlice';

describe('home data', () => {
  it('goes loading, then loaded with featured drinks and categories', async () => {
    const fake = fakeFetch({ 'GET /api/home/home/uk/': homePayload });
    const store = makeStore(undefined, { fetch: fake.fetch });
    const done = store.dispatch(fetchHome());
    expect(selectHome(store.getState()).status).toBe('loading');
    await done;
    const home = selectHome(store.getState());
    expect(home.status).toBe('loaded');
    expect(home.products.map((p) => p._id)).toEqual(['p-mango', 'p-cola', 'p-lemon']);
    expect(home.categories[0]?.name).toBe('Sodas');
  });

  it('goes to error with the shared message', async () => {
    const store = makeStore(undefined, { fetch: offlineFetch });
    await store.dispatch(fetchHome());
    expect(selectHome(store.getState())).toMatchObject({ status: 'failed', error: 'not fund 404' });
  });

  it('also logs the failure message, as the spec says of the home calls', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const fake = fakeFetch({ 'GET /api/home/home/uk/': json({ message: 'Table is busy' }, 503) });
    const store = makeStore(undefined, { fetch: fake.fetch });
    await store.dispatch(fetchHome());
    expect(log).toHaveBeenCalledWith('GET /api/home/home/uk/ failed: Table is busy');
    expect(selectHome(store.getState()).error).toBe('Table is busy');
  });

  it('logs nothing when the call succeeds', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const store = makeStore(undefined, { fetch: fakeFetch({ 'GET /api/home/home/uk/': homePayload }).fetch });
    await store.dispatch(fetchHome());
    expect(log).not.toHaveBeenCalled();
  });

  it("stores the server's message", async () => {
    const fake = fakeFetch({ 'GET /api/home/home/uk/': json({ message: 'Try later' }, 500) });
    const store = makeStore(undefined, { fetch: fake.fetch });
    await store.dispatch(fetchHome());
    expect(selectHome(store.getState()).error).toBe('Try later');
  });

  it('a retry sets the reload flag; the next request clears it', () => {
    const failed = { ...initialHomeState, status: 'failed' as const, error: 'x' };
    const asked = homeSlice.reducer(failed, homeReloadRequested());
    expect(asked.reload).toBe(true);
    const loading = homeSlice.reducer(asked, homeRequested());
    expect(loading).toMatchObject({ status: 'loading', reload: false, error: null });
  });
});
