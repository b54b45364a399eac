import { describe, expect, it } from 'vitest';
import { makeStore } from '../../app/store';
import { fakeFetch, json, offlineFetch } from '../../testing/fakeFetch';
import { initialAuthState } from './authSlice';
import { logOut } from './logout';

const signedIn = { auth: { ...initialAuthState, token: 'jwt', userInfo: { email: 'shopper@example.com', role: 'customer' } } };

describe('log out', () => {
  it('asks the server to end every token of the user, then forgets the session', async () => {
    const api = fakeFetch({ 'POST /api/user/logout/': { message: 'You are logged out on every device' } });
    const store = makeStore(signedIn, { fetch: api.fetch, reload: () => undefined });
    await store.dispatch(logOut());
    expect(api.calls.map((c) => `${c.method} ${new URL(c.url).pathname}`)).toEqual(['POST /api/user/logout/']);
    expect(api.calls[0]?.headers.get('Authorization')).toBe('Bearer jwt');
    expect(store.getState().auth).toEqual(initialAuthState);
  });

  it('forgets the session even when the server refuses or cannot be reached', async () => {
    for (const fetch of [fakeFetch({ 'POST /api/user/logout/': json({ message: 'token failed' }, 401) }).fetch, offlineFetch]) {
      const store = makeStore(signedIn, { fetch, reload: () => undefined });
      await store.dispatch(logOut());
      expect(store.getState().auth).toEqual(initialAuthState);
    }
  });

  it('calls nothing when nobody is signed in', async () => {
    const api = fakeFetch({});
    const store = makeStore(undefined, { fetch: api.fetch });
    await store.dispatch(logOut());
    expect(api.calls).toEqual([]);
  });
});
