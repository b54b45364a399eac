// A customer's data rights (UK GDPR): download everything the shop holds about them, and delete the account
// with a code the shop e-mails (the server erases; the browser then forgets the session).
import { userLoggedOut } from '../../state/session/authSlice';
import { errorMessage } from '../../lib/api';
import type { AppThunk } from '../../lib/thunk';

export type Outcome = { ok: true; message: string } | { ok: false; message: string };

/** Fetches the export and hands it to the browser as my-data.json. */
export const downloadMyData =
  (): AppThunk<Promise<Outcome>> =>
  async (_dispatch, _getState, { api }) => {
    try {
      const data = await api.get('/user/export/');
      const blob = new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' });
      const url = URL.createObjectURL(blob);
      const link = document.createElement('a');
      link.href = url;
      link.download = 'my-data.json';
      document.body.append(link);
      link.click();
      link.remove();
      URL.revokeObjectURL(url);
      return { ok: true, message: 'Your data is downloaded as my-data.json.' };
    } catch (error) {
      return { ok: false, message: errorMessage(error) };
    }
  };

export const requestErasure =
  (): AppThunk<Promise<Outcome>> =>
  async (_dispatch, _getState, { api }) => {
    try {
      const { message } = await api.post('/user/erase/request/', undefined);
      return { ok: true, message };
    } catch (error) {
      return { ok: false, message: errorMessage(error) };
    }
  };

export const confirmErasure =
  (code: string): AppThunk<Promise<Outcome>> =>
  async (dispatch, _getState, { api }) => {
    try {
      const { message } = await api.post('/user/erase/confirm/', { code: code.trim() });
      dispatch(userLoggedOut());
      return { ok: true, message };
    } catch (error) {
      return { ok: false, message: errorMessage(error) };
    }
  };
