// Logging out ends the session on the server too: POST /api/user/logout/ raises the user's token version, so
// every token of theirs (this browser's and any other device's) stops working at once. The local logout
// happens whatever the answer: a failed call must not keep anyone signed in on this screen.
import type { AppThunk } from '../../lib/thunk';
import { userLoggedOut, type AuthState } from './authSlice';

export const logOut =
  (): AppThunk<Promise<void>> =>
  async (dispatch, getState, { api }) => {
    const { auth } = getState() as { auth: AuthState };
    if (auth.token) {
      try {
        await api.post('/user/logout/');
      } catch {
        // An expired or already-ended token cannot be ended twice; offline, the token still leaves here.
      }
    }
    dispatch(userLoggedOut());
  };
