// Who is signed in. Only userInfo and the token are persisted; logging out resets everything.
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { isLoggedInEmail } from '../../lib/loggedIn';

export type Role = 'customer' | 'admin';

export interface UserInfo {
  email: string;
  role?: Role | string;
  fullname?: string;
  [field: string]: unknown;
}

export interface AuthState {
  userInfo: UserInfo | null;
  token: string | null;
  loading: boolean;
  error: string | null;
}

export const initialAuthState: AuthState = { userInfo: null, token: null, loading: false, error: null };

const authSlice = createSlice({
  name: 'auth',
  initialState: initialAuthState,
  reducers: {
    userLoggedIn(state, action: PayloadAction<{ token: string; userInfo: UserInfo }>) {
      state.token = action.payload.token;
      state.userInfo = action.payload.userInfo;
      state.loading = false;
      state.error = null;
    },
    userLoggedOut() {
      return initialAuthState;
    },
  },
});

export const { userLoggedIn, userLoggedOut } = authSlice.actions;

// Selectors are plain functions (not the slice's `selectors`), so the ones a page does not use drop out of
// its script.
type Root = { auth: AuthState };
export const selectToken = (state: Root) => state.auth.token;
export const selectUserInfo = (state: Root) => state.auth.userInfo;
/** The spec's rule: logged in means an e-mail longer than 5 characters. */
export const selectIsLoggedIn = (state: Root) => isLoggedInEmail(state.auth.userInfo?.email);
export const selectIsAdmin = (state: Root) => selectIsLoggedIn(state) && state.auth.userInfo?.role === 'admin';

export default authSlice;
