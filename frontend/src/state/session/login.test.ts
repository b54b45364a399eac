import { describe, expect, it } from 'vitest';
import { makeStore } from '../../app/store';
import { fakeFetch, json, offlineFetch } from '../../testing/fakeFetch';
import { requestLoginCode, verifyLoginCode } from './login';

const admin = { _id: 'admin@example.com', email: 'admin@example.com', role: 'admin', fullname: 'Shop Admin', phone: '', address: '', createdAt: '2026-11-22T05:00:00Z' };

describe('login calls', () => {
  it('asks for a code with the e-mail and marks the code step', async () => {
    const api = fakeFetch({ 'POST /api/user/login/': { message: 'If this address can log in, a code is on its way.' } });
    const store = makeStore(undefined, { fetch: api.fetch });
    expect(await store.dispatch(requestLoginCode('admin@example.com', () => 1234))).toBe(true);
    expect(api.calls[0]?.body).toEqual({ email: 'admin@example.com' });
    expect(store.getState().auth).toMatchObject({ verification: true, pendingEmail: 'admin@example.com', codeSentAt: 1234, loading: false });
  });

  it.each([
    [422, 'email must be a valid e-mail address'],
    [429, 'Too many codes asked for this address: try again in 60 minutes'],
  ])("stores the server's %i message and stays on the e-mail step", async (status, message) => {
    const api = fakeFetch({ 'POST /api/user/login/': json({ message }, status) });
    const store = makeStore(undefined, { fetch: api.fetch });
    expect(await store.dispatch(requestLoginCode('admin@example.com'))).toBe(false);
    expect(store.getState().auth).toMatchObject({ error: message, verification: false, loading: false });
  });

  it("says 'not fund 404' when the server cannot be reached", async () => {
    const store = makeStore(undefined, { fetch: offlineFetch });
    await store.dispatch(requestLoginCode('admin@example.com'));
    expect(store.getState().auth.error).toBe('not fund 404');
  });

  it('a right code signs in with the token and user', async () => {
    const api = fakeFetch({ 'POST /api/user/verify/': { token: 'jwt', userInfo: admin } });
    const store = makeStore(undefined, { fetch: api.fetch });
    expect(await store.dispatch(verifyLoginCode('admin@example.com', '123456'))).toEqual(admin);
    expect(api.calls[0]?.body).toEqual({ email: 'admin@example.com', code: '123456' });
    expect(store.getState().auth).toMatchObject({ token: 'jwt', userInfo: admin, error: null, verification: false });
  });

  it('a wrong code keeps the tries-left message and signs nobody in', async () => {
    const api = fakeFetch({ 'POST /api/user/verify/': json({ message: 'That code is wrong: 4 tries left' }, 400) });
    const store = makeStore(undefined, { fetch: api.fetch });
    expect(await store.dispatch(verifyLoginCode('admin@example.com', '000000'))).toBeNull();
    expect(store.getState().auth).toMatchObject({ token: null, userInfo: null, error: 'That code is wrong: 4 tries left' });
  });
});
