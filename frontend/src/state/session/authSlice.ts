// Who is signed in, and where the login by e-mailed code stands (its calls are in login.ts, loaded with the
// login page and the admin area). The session is shared by the storefront's features and the admin, so it
// lives in state/, below them both. Only userInfo and the token are persisted (app/persistence.ts); the code
// step, loading and errors start fresh. Logging out resets everything. A plain slice (no immer): the first page holds it
// (lib/plainSlice.ts).
import type { PayloadAction } from '@reduxjs/toolkit';
import { createPlainSlice } from '../../lib/plainSlice';
import type { Schemas } from '../../lib/api';
import { isLoggedInEmail } from '../../lib/loggedIn';

export type Role = Schemas['Role'];

/**
 * The signed-in user as this browser keeps it: persisted across the shop's versions, so looser than the
 * document's UserInfo (`Schemas['UserInfo']`), which the login and profile replies bring into it.
 */
export interface UserInfo {
  email: string;
  role?: Role | string;
  fullname?: string;
  phone?: string;
  address?: string;
  _id?: string;
  createdAt?: string;
  [field: string]: unknown;
}

export interface AuthState {
  userInfo: UserInfo | null;
  token: string | null;
  /** A login call (code request or check) is on its way. */
  loading: boolean;
  /** The last login call's failure, as the server worded it. */
  error: string | null;
  /** The spec's verification flag: a code was sent to `pendingEmail`, so the page asks for it. */
  verification: boolean;
  pendingEmail: string | null;
  /** When the last code was sent (ms since the epoch): the resend button waits out a cooldown from it. */
  codeSentAt: number | null;
  /**
   * The spec's cpanel flag: the signed-in user may enter the admin area (/new/uk/). Optional in the type only
   * because a state written before the flags existed lacks them; the store derives them from the role on
   * every way in (see accessFlags), and a missing flag reads as false.
   */
  cpanel?: boolean;
  /** The spec's showsubscription flag: the signed-in user may see the subscribers and the mailer. */
  showsubscription?: boolean;
}

export const initialAuthState: AuthState = {
  userInfo: null,
  token: null,
  loading: false,
  error: null,
  verification: false,
  pendingEmail: null,
  codeSentAt: null,
  cpanel: false,
  showsubscription: false,
};

/**
 * The flags follow from the user's role, which the server reads from the users table on every call: only an
 * admin may open the admin area, and only an admin may see the subscription lists and send mailings. They are
 * derived (never persisted on their own), so a stored or preloaded session cannot claim more than its role.
 */
export function accessFlags(userInfo: UserInfo | null): { cpanel: boolean; showsubscription: boolean } {
  const admin = isLoggedInEmail(userInfo?.email) && userInfo?.role === 'admin';
  return { cpanel: admin, showsubscription: admin };
}

/** `auth` with its flags recomputed from its userInfo. */
export function withAccessFlags(auth: AuthState): AuthState {
  return { ...auth, ...accessFlags(auth.userInfo) };
}

/** How long the resend button waits after a code was sent. */
export const RESEND_COOLDOWN_MS = 60_000;

export interface LoginAnswer {
  token: string;
  userInfo: UserInfo;
}

const authSlice = createPlainSlice('auth', initialAuthState, {
  /** A code was asked for, or one was sent back to be checked. */
  loginCallStarted: (state) => ({ ...state, loading: true, error: null }),
  loginCodeSent: (state, action: PayloadAction<{ email: string; at: number }>) => ({
    ...state,
    loading: false,
    error: null,
    verification: true,
    pendingEmail: action.payload.email,
    codeSentAt: action.payload.at,
  }),
  /** The server refused (bad e-mail, wrong code, too many codes) or could not be reached. */
  loginCallFailed: (state, action: PayloadAction<string>) => ({ ...state, loading: false, error: action.payload }),
  /** Back to the e-mail step (a different address, or a typo). */
  loginEmailEdited: (state) => ({ ...state, verification: false, error: null, loading: false }),
  userLoggedIn: (state, action: PayloadAction<LoginAnswer>) => ({
    ...state,
    token: action.payload.token,
    userInfo: action.payload.userInfo,
    loading: false,
    error: null,
    verification: false,
    pendingEmail: null,
    codeSentAt: null,
    ...accessFlags(action.payload.userInfo),
  }),
  /** The profile screens saved or fetched a newer copy of the signed-in user. */
  userInfoUpdated: (state, action: PayloadAction<UserInfo>) =>
    state.userInfo && state.userInfo.email === action.payload.email
      ? // A role changed by another admin takes effect here (the admin area checks the profile on entry).
        { ...state, userInfo: action.payload, ...accessFlags(action.payload) }
      : state,
  userLoggedOut: () => initialAuthState,
});

export const {
  loginCallStarted,
  loginCodeSent,
  loginCallFailed,
  loginEmailEdited,
  userLoggedIn,
  userInfoUpdated,
  userLoggedOut,
} = authSlice.actions;

// Selectors are plain functions (not the slice's `selectors`), so the ones a page does not use drop out of
// its script.
type Root = { auth: AuthState };
export const selectAuth = (state: Root) => state.auth;
export const selectToken = (state: Root) => state.auth.token;
export const selectUserInfo = (state: Root) => state.auth.userInfo;
/** The spec's rule: logged in means an e-mail longer than 5 characters. */
export const selectIsLoggedIn = (state: Root) => isLoggedInEmail(state.auth.userInfo?.email);
export const selectIsAdmin = (state: Root) => selectIsLoggedIn(state) && state.auth.cpanel === true;
export const selectShowSubscription = (state: Root) => selectIsLoggedIn(state) && state.auth.showsubscription === true;

export default authSlice;
