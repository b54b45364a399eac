// The API client and the spec's shared error handler, through a real store (token, logout).
import { describe, expect, it, vi } from 'vitest';
import { makeStore } from '../app/store';
import { userLoggedIn } from '../state/session/authSlice';
import { fakeFetch, json, offlineFetch } from '../testing/fakeFetch';
import { ApiError, createApiClient, errorMessage, expandPath, isAuthFailure, NETWORK_ERROR_MESSAGE } from './api';

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
    const fake = fakeFetch({ 'DELETE /api/product/delete/p-1': () => new Response(null, { status: 204 }) });
    await expect(client(fake.fetch).api.delete('/product/delete/{_id}', { params: { _id: 'p-1' } })).resolves.toBeUndefined();
  });
});

describe('paths as the document writes them', () => {
  it('fills each placeholder with its parameter, URL-encoded', () => {
    expect(expandPath('/product/{_id}', { _id: 'p 1/2?x#y' })).toBe('/product/p%201%2F2%3Fx%23y');
    expect(expandPath('/order/confirm/{id}/', { id: 'o-1' })).toBe('/order/confirm/o-1/');
    expect(expandPath('/product/', {})).toBe('/product/');
  });

  it("keeps an e-mail's '@' as it is, a path segment allows it", () => {
    expect(expandPath('/user/role/{email}', { email: 'a+b@example.com' })).toBe('/user/role/a%2Bb@example.com');
  });

  it('throws when a placeholder has no parameter, rather than calling a wrong address', () => {
    expect(() => expandPath('/product/{_id}', {})).toThrow('/product/{_id} needs the parameter _id');
    expect(() => expandPath('/product/{_id}')).toThrow('needs the parameter _id');
  });

  it('a typed call fills the path parameters and sends the query', async () => {
    const fake = fakeFetch({ 'GET /api/home_uk/palestine/comment/reviews': { product: [], pages: 0, result: {} } });
    const { api } = client(fake.fetch);
    await api.get('/home_uk/palestine/comment/reviews', { query: { pageNumber: 2, ProductsId: 'p 1' } });
    expect(fake.calls[0]?.url.search).toBe('?pageNumber=2&ProductsId=p+1');

    const put = fakeFetch({ 'PUT /api/user/role/u2@example.com': { email: 'u2@example.com', role: 'admin' } });
    const answer = await client(put.fetch, 'jwt-123').api.put('/user/role/{email}', { role: 'admin' }, { params: { email: 'u2@example.com' } });
    expect(put.calls[0]?.url.pathname).toBe('/api/user/role/u2@example.com');
    expect(put.calls[0]?.body).toEqual({ role: 'admin' });
    expect(answer.role).toBe('admin');
  });

  it('a POST with no body and a path parameter sends no body', async () => {
    const fake = fakeFetch({ 'POST /api/order/confirm/o%201/': json('o 1') });
    await expect(client(fake.fetch).api.post('/order/confirm/{id}/', undefined, { params: { id: 'o 1' } })).resolves.toBe('o 1');
    expect(fake.calls[0]?.url.pathname).toBe('/api/order/confirm/o%201/');
    expect(fake.calls[0]?.body).toBeUndefined();
    expect(fake.calls[0]?.headers.has('Content-Type')).toBe(false);
  });

  it('a missing path parameter fails the call before anything is sent', async () => {
    const fake = fakeFetch({});
    const { api } = client(fake.fetch);
    // The types refuse this call; a caller that gets round them still reaches no wrong address.
    const untyped = api.get as (path: string, options?: object) => Promise<unknown>;
    await expect(untyped('/product/{_id}', {})).rejects.toThrow('needs the parameter _id');
    expect(fake.calls).toHaveLength(0);
  });
});

describe('the shared error handler', () => {
  it("reads a network failure as 'not fund 404'", async () => {
    await expect(client(offlineFetch).api.get('/home/home/uk/')).rejects.toThrow(NETWORK_ERROR_MESSAGE);
    expect(NETWORK_ERROR_MESSAGE).toBe('not fund 404');
  });

  it("stores the server's message", async () => {
    const fake = fakeFetch({ 'GET /api/product/nope': json({ message: 'Product not found' }, 404) });
    const error = await client(fake.fetch).api.get('/product/{_id}', { params: { _id: 'nope' } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(errorMessage(error)).toBe('Product not found');
    expect((error as ApiError).status).toBe(404);
  });

  it("falls back to the error's own message when the body has none", async () => {
    const fake = fakeFetch({ 'GET /api/home/home/uk/': () => new Response('<html>oops</html>', { status: 502 }) });
    await expect(client(fake.fetch).api.get('/home/home/uk/')).rejects.toThrow('Request failed with status code 502');
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
