import { describe, expect, it } from 'vitest';
import { makeStore } from '../../app/store';
import { fakeFetch, json } from '../../testing/fakeFetch';
import { initialAuthState, userLoggedOut } from './authSlice';
import profileSlice, {
  fetchProfile,
  fieldOfMessage,
  initialProfileState,
  profileEdited,
  profileReloadRequested,
  saveProfile,
  selectProfile,
} from './profileSlice';

const me = { _id: 'shopper@example.com', email: 'shopper@example.com', role: 'customer', fullname: '', phone: '', address: '', createdAt: '2026-11-22T05:00:00Z' };
const signedIn = { auth: { ...initialAuthState, token: 'jwt', userInfo: me } };

describe('profile', () => {
  it('loads the profile with the bearer token', async () => {
    const api = fakeFetch({ 'GET /api/user/profile/': me });
    const store = makeStore(signedIn, { fetch: api.fetch });
    await store.dispatch(fetchProfile());
    expect(selectProfile(store.getState())).toMatchObject({ status: 'loaded', profile: me, reload: false });
    expect(api.calls[0]?.headers.get('Authorization')).toBe('Bearer jwt');
  });

  it('fails with the message, and a retry sets the reload flag', async () => {
    const api = fakeFetch({ 'GET /api/user/profile/': json({ message: 'Try later' }, 500) });
    const store = makeStore(signedIn, { fetch: api.fetch });
    await store.dispatch(fetchProfile());
    expect(selectProfile(store.getState())).toMatchObject({ status: 'failed', error: 'Try later' });
    store.dispatch(profileReloadRequested());
    expect(selectProfile(store.getState()).reload).toBe(true);
  });

  it('saves the name, the phone and the address parts, and the signed-in user follows', async () => {
    const parts = { addressLine1: '12 Park Row', addressLine2: '', town: 'Leeds', postcode: 'LS1 5HD' };
    const saved = { ...me, fullname: 'Layla Haddad', phone: '0113 496 0000', address: '12 Park Row\nLeeds\nLS1 5HD', ...parts };
    const api = fakeFetch({ 'PUT /api/user/profile/': saved });
    const store = makeStore(signedIn, { fetch: api.fetch });
    const changes = { fullname: 'Layla Haddad', phone: '0113 496 0000', ...parts };
    expect(await store.dispatch(saveProfile(changes))).toBe(true);
    expect(api.calls[0]?.body).toEqual(changes);
    expect(selectProfile(store.getState())).toMatchObject({ profile: saved, save: { status: 'loaded', error: null } });
    expect(store.getState().auth.userInfo?.fullname).toBe('Layla Haddad');
    store.dispatch(profileEdited());
    expect(selectProfile(store.getState()).save.status).toBe('idle');
  });

  it('puts a 422 beside the field it names, and anything else above the form', async () => {
    let answer = json({ message: 'phone must be at least 10 digits' }, 422);
    const api = fakeFetch({ 'PUT /api/user/profile/': () => answer });
    const store = makeStore(signedIn, { fetch: api.fetch });
    const changes = { fullname: '', phone: '0113', addressLine1: '', addressLine2: '', town: '', postcode: '' };
    expect(await store.dispatch(saveProfile(changes))).toBe(false);
    expect(selectProfile(store.getState()).save).toEqual({
      status: 'failed',
      error: null,
      fieldErrors: { phone: 'phone must be at least 10 digits' },
    });
    answer = json({ message: 'Try later' }, 500);
    await store.dispatch(saveProfile(changes));
    expect(selectProfile(store.getState()).save).toEqual({ status: 'failed', error: 'Try later', fieldErrors: {} });
  });

  it('names the field from the message', () => {
    expect(fieldOfMessage('fullname must be longer than 5 characters')).toBe('fullname');
    expect(fieldOfMessage('addressLine1 must be 2 to 100 characters')).toBe('addressLine1');
    expect(fieldOfMessage('postcode must be a UK postcode, e.g. SW1A 1AA')).toBe('postcode');
    expect(fieldOfMessage('Phone must be at least 10 digits')).toBe('phone');
    expect(fieldOfMessage('email is fixed')).toBeNull();
  });

  it('forgets everything on logout', () => {
    const loaded = profileSlice.reducer(initialProfileState, { type: 'profile/profileReceived', payload: { arg: undefined, result: me } });
    expect(loaded.profile).toEqual(me);
    expect(profileSlice.reducer(loaded, userLoggedOut())).toEqual(initialProfileState);
  });

  it("logs out and reloads when the server says the person does not exist", async () => {
    const api = fakeFetch({ 'GET /api/user/profile/': json({ message: 'The person does not exist in the database' }, 401) });
    let reloads = 0;
    const store = makeStore(signedIn, { fetch: api.fetch, reload: () => (reloads += 1) });
    await store.dispatch(fetchProfile());
    expect(store.getState().auth).toEqual(initialAuthState);
    expect(reloads).toBe(1);
  });
});
