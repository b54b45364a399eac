import { describe, expect, it } from 'vitest';
import { makeStore } from '../../app/store';
import { readSavedState } from '../../app/savedState';
import authSlice, {
  initialAuthState,
  loginCallFailed,
  loginCallStarted,
  loginCodeSent,
  loginEmailEdited,
  selectIsAdmin,
  selectIsLoggedIn,
  selectShowSubscription,
  userInfoUpdated,
  userLoggedIn,
  userLoggedOut,
  type AuthState,
} from './authSlice';

const reduce = (state: AuthState, ...actions: Parameters<typeof authSlice.reducer>[1][]) =>
  actions.reduce(authSlice.reducer, state);

const signedIn = authSlice.reducer(
  initialAuthState,
  userLoggedIn({ token: 'jwt', userInfo: { email: 'admin@example.com', role: 'admin' } }),
);

describe("the spec's cpanel and showsubscription flags", () => {
  it('are set for an admin and clear for a customer when they log in', () => {
    expect(signedIn).toMatchObject({ cpanel: true, showsubscription: true });
    const customer = authSlice.reducer(
      initialAuthState,
      userLoggedIn({ token: 't', userInfo: { email: 'shopper@example.com', role: 'customer' } }),
    );
    expect(customer).toMatchObject({ cpanel: false, showsubscription: false });
    expect(selectIsAdmin({ auth: customer })).toBe(false);
    expect(selectShowSubscription({ auth: customer })).toBe(false);
    expect(selectShowSubscription({ auth: signedIn })).toBe(true);
  });

  it('follow a role change read from the profile', () => {
    const demoted = authSlice.reducer(signedIn, userInfoUpdated({ email: 'admin@example.com', role: 'customer' }));
    expect(demoted).toMatchObject({ cpanel: false, showsubscription: false });
    expect(selectIsAdmin({ auth: demoted })).toBe(false);
  });

  it('start cleared and are cleared by logout', () => {
    expect(initialAuthState).toMatchObject({ cpanel: false, showsubscription: false });
    expect(authSlice.reducer(signedIn, userLoggedOut())).toMatchObject({ cpanel: false, showsubscription: false });
  });

  it('are derived again for a restored or preloaded session, never taken from it', () => {
    const forged = makeStore({ auth: { ...initialAuthState, token: 't', userInfo: { email: 'shopper@example.com', role: 'customer' }, cpanel: true } });
    expect(forged.getState().auth).toMatchObject({ cpanel: false, showsubscription: false });
    const admin = makeStore({ auth: { ...initialAuthState, token: 't', userInfo: { email: 'admin@example.com', role: 'admin' } } });
    expect(admin.getState().auth).toMatchObject({ cpanel: true, showsubscription: true });

    window.localStorage.setItem(
      'persist:root',
      JSON.stringify({
        Auth: JSON.stringify({ token: 't', userInfo: { email: 'admin@example.com', role: 'admin' } }),
        _persist: JSON.stringify({ version: 1, rehydrated: true }),
      }),
    );
    const restored = makeStore(readSavedState());
    expect(restored.getState().auth).toMatchObject({ cpanel: true, showsubscription: true });
  });
});

describe('auth', () => {
  it('holds the token and user after logging in', () => {
    expect(signedIn).toMatchObject({ token: 'jwt', userInfo: { email: 'admin@example.com' }, error: null });
    expect(selectIsLoggedIn({ auth: signedIn })).toBe(true);
    expect(selectIsAdmin({ auth: signedIn })).toBe(true);
  });

  it('resets to the initial values on logout', () => {
    expect(authSlice.reducer(signedIn, userLoggedOut())).toEqual(initialAuthState);
    const midLogin = reduce(initialAuthState, loginCodeSent({ email: 'a_b@example.com', at: 5 }), loginCallFailed('x'));
    expect(authSlice.reducer(midLogin, userLoggedOut())).toEqual(initialAuthState);
  });

  it('counts as logged in only with an e-mail longer than 5 characters', () => {
    const short = authSlice.reducer(initialAuthState, userLoggedIn({ token: 't', userInfo: { email: 'a@b.c' } }));
    expect(selectIsLoggedIn({ auth: short })).toBe(false);
    expect(selectIsLoggedIn({ auth: initialAuthState })).toBe(false);
    const six = authSlice.reducer(initialAuthState, userLoggedIn({ token: 't', userInfo: { email: 'a@b.co' } }));
    expect(selectIsLoggedIn({ auth: six })).toBe(true);
  });

  it('treats only the admin role as admin', () => {
    const customer = authSlice.reducer(
      initialAuthState,
      userLoggedIn({ token: 't', userInfo: { email: 'shopper@example.com', role: 'customer' } }),
    );
    expect(selectIsAdmin({ auth: customer })).toBe(false);
  });
});

describe('login by code', () => {
  it('asking for a code loads, then sets the verification flag for that address', () => {
    const asking = authSlice.reducer(initialAuthState, loginCallStarted());
    expect(asking).toMatchObject({ loading: true, error: null, verification: false });
    const sent = authSlice.reducer(asking, loginCodeSent({ email: 'shopper@example.com', at: 1000 }));
    expect(sent).toMatchObject({ loading: false, verification: true, pendingEmail: 'shopper@example.com', codeSentAt: 1000 });
  });

  it("keeps the server's message on a failure and clears it on the next try", () => {
    const failed = reduce(
      initialAuthState,
      loginCodeSent({ email: 'shopper@example.com', at: 1 }),
      loginCallStarted(),
      loginCallFailed('That code is wrong: 4 tries left'),
    );
    expect(failed).toMatchObject({ loading: false, error: 'That code is wrong: 4 tries left', verification: true });
    expect(authSlice.reducer(failed, loginCallStarted()).error).toBeNull();
  });

  it('going back to the e-mail step drops the flag and the error but remembers the address', () => {
    const back = reduce(
      initialAuthState,
      loginCodeSent({ email: 'shopper@example.com', at: 1 }),
      loginCallFailed('nope'),
      loginEmailEdited(),
    );
    expect(back).toMatchObject({ verification: false, error: null, pendingEmail: 'shopper@example.com' });
  });

  it('logging in ends the code step', () => {
    const done = reduce(
      initialAuthState,
      loginCodeSent({ email: 'shopper@example.com', at: 1 }),
      loginCallStarted(),
      userLoggedIn({ token: 'jwt', userInfo: { email: 'shopper@example.com', role: 'customer' } }),
    );
    expect(done).toEqual({
      ...initialAuthState,
      token: 'jwt',
      userInfo: { email: 'shopper@example.com', role: 'customer' },
    });
  });

  it('takes a newer copy of the signed-in user, but not of someone else', () => {
    const renamed = authSlice.reducer(signedIn, userInfoUpdated({ email: 'admin@example.com', role: 'admin', fullname: 'New' }));
    expect(renamed.userInfo?.fullname).toBe('New');
    const other = authSlice.reducer(signedIn, userInfoUpdated({ email: 'other@example.com', fullname: 'Other' }));
    expect(other.userInfo?.email).toBe('admin@example.com');
    expect(authSlice.reducer(initialAuthState, userInfoUpdated({ email: 'x@example.com' })).userInfo).toBeNull();
  });
});
