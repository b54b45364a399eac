// The login calls, apart from the slice so that only the screens that sign in or refresh the user (the login
// page, the admin area) download them: ask for a code by e-mail, then send it back for a token and the user.
import { errorMessage } from '../../lib/api';
import type { AppThunk } from '../../lib/thunk';
import {
  loginCallFailed,
  loginCallStarted,
  loginCodeSent,
  userInfoUpdated,
  userLoggedIn,
  type UserInfo,
} from './authSlice';

/** Asks the back end to e-mail a login code to `email`; true when it was sent. */
export const requestLoginCode =
  (email: string, now: () => number = Date.now): AppThunk<Promise<boolean>> =>
  async (dispatch, _getState, { api }) => {
    dispatch(loginCallStarted());
    try {
      await api.post('/user/login/', { email });
      dispatch(loginCodeSent({ email, at: now() }));
      return true;
    } catch (error) {
      dispatch(loginCallFailed(errorMessage(error)));
      return false;
    }
  };

/** Sends the code back; on success the user is signed in and the answer's user is returned. */
export const verifyLoginCode =
  (email: string, code: string): AppThunk<Promise<UserInfo | null>> =>
  async (dispatch, _getState, { api }) => {
    dispatch(loginCallStarted());
    try {
      const answer = await api.post('/user/verify/', { email, code });
      dispatch(userLoggedIn(answer));
      return answer.userInfo;
    } catch (error) {
      dispatch(loginCallFailed(errorMessage(error)));
      return null;
    }
  };

/**
 * Asks the server who the token belongs to now and keeps the answer: the role lives in the users table, so
 * an admin made a customer elsewhere stops seeing the admin area. A failure changes nothing here (an auth
 * failure already logs out through the API client).
 */
export const refreshSignedInUser = (): AppThunk<Promise<void>> => async (dispatch, _getState, { api }) => {
  try {
    dispatch(userInfoUpdated(await api.get('/user/profile/')));
  } catch {
    // Kept as it was: a network blip must not throw an admin out.
  }
};
