// The API client and the spec's shared error handler, through a real store (token, logout).
import { describe, expect, it, vi } from 'vitest';
import { makeStore } from '../app/store';
import { userLoggedIn } from '../features/auth/authSlice';
import { fakeFetch, json, offlineFetch } from '../testing/fakeFetch';
import { ApiError, createApiClient, errorMessage, isAuthFailure, NETWORK_ERROR_MESSAGE } from './api';

const signedIn = { token: 'jwt-123', userInfo: { email: 'shopper@example.com', role: 'customer' } };

function client(fetch: typeof globalThis.fetch, token: string | null = null) {
  const onAuthFailure = vi.fn();
  const api = createApiClient({ getToken: () => token, onAuthFailure, fetch });
  return { api, onAuthFailure };
}

describe('api client', () => {
  it('calls /api on the page origin with the query string', async () => {
    const fake = fakeFetch({ 'GET /api/home/drinks/hom/uk/uk/': { product: [] } });
    const { api } = client(fake.fetch);
    await api.get('/home/drinks/hom/uk/uk/', { query: { pageNumber: 2, category: undefined } });
    const [call] = fake.calls;
    expect(call?.url.origin).toBe(window.location.origin);
    expect(call?.url.pathname).toBe('/api/home/drinks/hom/uk/uk/');
    expect(call?.url.search).toBe('?pageNumber=2');
  });

  it('sends the bearer token when there is one, and JSON bodies', async () => {
    const fake = fakeFetch({ 'POST /api/code/customer/': { status: false } });
    const { api } = client(fake.fetch, 'jwt-123');
    await api.post('/code/customer/', { code: 'SUMMER' });
    const [call] = fake.calls;
    expect(call?.headers.get('Authorization')).toBe('Bearer jwt-123');
    expect(call?.headers.get('Content-Type')).toBe('application/json');
    expect(call?.body).toEqual({ code: 'SUMMER' });
  });

  it('sends a FormData body (an image upload) as is, leaving its Content-Type to the browser', async () => {
    const fake = fakeFetch({ 'POST /api/uploading/': json('a1.png', 201) });
    const form = new FormData();
    form.append('image', new Blob(['png']), 'can.png');
    await expect(client(fake.fetch, 'jwt-123').api.post('/uploading/', form)).resolves.toBe('a1.png');
    const [call] = fake.calls;
    expect(call?.body).toBe(form);
    expect(call?.headers.has('Content-Type')).toBe(false);
  });

  it('leaves the token off a call sent withoutToken, even when signed in', async () => {
    const fake = fakeFetch({ 'POST /api/code/customer/': { status: false } });
    await client(fake.fetch, 'jwt-123').api.post('/code/customer/', { code: ' a ' }, { withoutToken: true });
    expect(fake.calls[0]?.headers.has('Authorization')).toBe(false);
    expect(fake.calls[0]?.body).toEqual({ code: ' a ' });
  });

  it('sends no Authorization header without a token', async () => {
    const fake = fakeFetch({ 'GET /api/product/': [] });
    await client(fake.fetch).api.get('/product/');
    expect(fake.calls[0]?.headers.has('Authorization')).toBe(false);
  });

  it('treats 2xx as success, including an empty body', async () => {
    const fake = fakeFetch({ 'DELETE /api/x/': () => new Response(null, { status: 204 }) });
    await expect(client(fake.fetch).api.delete('/x/')).resolves.toBeUndefined();
  });
});

describe('the shared error handler', () => {
  it("reads a network failure as 'not fund 404'", async () => {
    await expect(client(offlineFetch).api.get('/home/home/uk/')).rejects.toThrow(NETWORK_ERROR_MESSAGE);
    expect(NETWORK_ERROR_MESSAGE).toBe('not fund 404');
  });

  it("stores the server's message", async () => {
    const fake = fakeFetch({ 'GET /api/product/nope': json({ message: 'Product not found' }, 404) });
    const error = await client(fake.fetch).api.get('/product/nope').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(errorMessage(error)).toBe('Product not found');
    expect((error as ApiError).status).toBe(404);
  });

  it("falls back to the error's own message when the body has none", async () => {
    const fake = fakeFetch({ 'GET /api/x': () => new Response('<html>oops</html>', { status: 502 }) });
    await expect(client(fake.fetch).api.get('/x')).rejects.toThrow('Request failed with status code 502');
    expect(errorMessage(new Error('boom'))).toBe('boom');
    expect(errorMessage(undefined)).toBe('Try later');
  });

  it.each([
    'Not authorized',
    'token failed',
    'Not authorized, token failed',
    'The person does not exist in the database',
    "Cannot read properties of null (reading '_id')",
    'Cast to ObjectId failed for value "null" (type string) at path "_id"',
  ])('logs out and reloads on %j when signed in', async (message) => {
    const reload = vi.fn();
    const fake = fakeFetch({ 'GET /api/order/total/': json({ message }, 401) });
    const store = makeStore(undefined, { fetch: fake.fetch, reload });
    store.dispatch(userLoggedIn(signedIn));
    // The store's own client, reached the way every thunk reaches it.
    await store.dispatch(async (_dispatch, _getState, { api }) => {
      await api.get('/order/total/').catch(() => undefined);
    });
    expect(store.getState().auth.token).toBeNull();
    expect(store.getState().auth.userInfo).toBeNull();
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('does not log out on other failures', async () => {
    const reload = vi.fn();
    const fake = fakeFetch({ 'GET /api/order/total/': json({ message: 'Not authorized as an admin' }, 403) });
    const store = makeStore(undefined, { fetch: fake.fetch, reload });
    store.dispatch(userLoggedIn(signedIn));
    await store.dispatch(async (_dispatch, _getState, { api }) => {
      await api.get('/order/total/').catch(() => undefined);
    });
    expect(store.getState().auth.token).toBe('jwt-123');
    expect(reload).not.toHaveBeenCalled();
  });

  it('does not reload when no one is signed in (nothing to drop; it would only loop)', async () => {
    const fake = fakeFetch({ 'GET /api/order/total/': json({ message: 'Not authorized' }, 401) });
    const { api, onAuthFailure } = client(fake.fetch, null);
    await expect(api.get('/order/total/')).rejects.toThrow('Not authorized');
    expect(onAuthFailure).not.toHaveBeenCalled();
  });

  it('recognises the auth failure messages exactly', () => {
    expect(isAuthFailure(' token failed ')).toBe(true);
    expect(isAuthFailure('Cannot read properties of null (reading \'name\')')).toBe(false);
    expect(isAuthFailure('Product not found')).toBe(false);
  });
});
