import { describe, expect, it } from 'vitest';
import authSlice, {
  initialAuthState,
  selectIsAdmin,
  selectIsLoggedIn,
  userLoggedIn,
  userLoggedOut,
} from './authSlice';

const signedIn = authSlice.reducer(
  initialAuthState,
  userLoggedIn({ token: 'jwt', userInfo: { email: 'admin@example.com', role: 'admin' } }),
);

describe('auth', () => {
  it('holds the token and user after logging in', () => {
    expect(signedIn).toMatchObject({ token: 'jwt', userInfo: { email: 'admin@example.com' }, error: null });
    expect(selectIsLoggedIn({ auth: signedIn })).toBe(true);
    expect(selectIsAdmin({ auth: signedIn })).toBe(true);
  });

  it('resets to the initial values on logout', () => {
    expect(authSlice.reducer(signedIn, userLoggedOut())).toEqual(initialAuthState);
  });

  it('counts as logged in only with an e-mail longer than 5 characters', () => {
    const short = authSlice.reducer(initialAuthState, userLoggedIn({ token: 't', userInfo: { email: 'a@b.c' } }));
    expect(selectIsLoggedIn({ auth: short })).toBe(false);
    expect(selectIsLoggedIn({ auth: initialAuthState })).toBe(false);
  });

  it('treats only the admin role as admin', () => {
    const customer = authSlice.reducer(
      initialAuthState,
      userLoggedIn({ token: 't', userInfo: { email: 'shopper@example.com', role: 'customer' } }),
    );
    expect(selectIsAdmin({ auth: customer })).toBe(false);
  });
});
