// Passkeys: signing in with one (start, the browser's signature, finish: a session as a code gives), and a
// signed-in user's own passkeys (list, add, remove) for the profile page. The browser's dialog is the
// authenticator's: a passkey that is cancelled or refused there is a message, not an error page.
import { errorMessage, type Schemas } from '../../lib/api';
import type { AppThunk } from '../../lib/thunk';
import { creationOptions, credentialJson, requestOptions } from '../../lib/webauthn';
import { loginCallFailed, loginCallStarted, userLoggedIn, type UserInfo } from './authSlice';

export type Passkey = Schemas['PasskeyInfo'];
export type Outcome = { ok: true; message: string } | { ok: false; message: string };

/** The browser's refusal in words a person can act on. */
function browserMessage(error: unknown): string {
  if (error instanceof DOMException) {
    if (error.name === 'NotAllowedError') return 'The passkey was not used: the request was cancelled or timed out.';
    if (error.name === 'InvalidStateError') return 'This device already holds a passkey for your account.';
    if (error.name === 'SecurityError') return 'Passkeys work only at the shop’s own address.';
  }
  return errorMessage(error);
}

/** Signs `email` in with one of its passkeys; the user on success. */
export const signInWithPasskey =
  (email: string): AppThunk<Promise<UserInfo | null>> =>
  async (dispatch, _getState, { api }) => {
    dispatch(loginCallStarted());
    try {
      const start = await api.post('/user/passkey/login/start/', { email });
      const credential = (await navigator.credentials.get(requestOptions(start.options))) as PublicKeyCredential | null;
      if (!credential) throw new DOMException('No passkey', 'NotAllowedError');
      const session = await api.post('/user/passkey/login/finish/', {
        email,
        ceremony: start.ceremony,
        credential: credentialJson(credential),
      });
      dispatch(userLoggedIn(session));
      return session.userInfo;
    } catch (error) {
      dispatch(loginCallFailed(browserMessage(error)));
      return null;
    }
  };

export const listPasskeys =
  (): AppThunk<Promise<Passkey[] | string>> =>
  async (_dispatch, _getState, { api }) => {
    try {
      return await api.get('/user/passkeys/');
    } catch (error) {
      return errorMessage(error);
    }
  };

/** Creates a passkey on this device for the signed-in user, named `name`. */
export const addPasskey =
  (name: string): AppThunk<Promise<Outcome>> =>
  async (_dispatch, _getState, { api }) => {
    try {
      const start = await api.post('/user/passkey/register/start/', undefined);
      const credential = (await navigator.credentials.create(creationOptions(start.options))) as PublicKeyCredential | null;
      if (!credential) throw new DOMException('No passkey', 'NotAllowedError');
      const added = await api.post('/user/passkey/register/finish/', {
        ceremony: start.ceremony,
        credential: credentialJson(credential),
        name: name.trim(),
      });
      return { ok: true, message: `Passkey “${added.name}” added: you can sign in with it.` };
    } catch (error) {
      return { ok: false, message: browserMessage(error) };
    }
  };

export const removePasskey =
  (id: string): AppThunk<Promise<Outcome>> =>
  async (_dispatch, _getState, { api }) => {
    try {
      const { message } = await api.delete('/user/passkeys/{id}', { params: { id } });
      return { ok: true, message };
    } catch (error) {
      return { ok: false, message: errorMessage(error) };
    }
  };
