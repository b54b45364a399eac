// Writes from admin screens (save, delete, upload): started, then succeeded with what to tell the admin, or
// failed with the shared handler's message; the thunk resolves whether it worked. Its own module, not in
// thunk.ts: the first page imports thunk.ts, and every export a later screen uses would ride along.
import type { ThunkAction, UnknownAction } from '@reduxjs/toolkit';
import { errorMessage, type ApiClient } from './api';
import type { ThunkExtra } from './thunk';

interface WriteEvents {
  started: () => UnknownAction;
  succeeded: (notice: string) => UnknownAction;
  failed: (message: string) => UnknownAction;
}

export type WriteThunk = ThunkAction<Promise<boolean>, unknown, ThunkExtra, UnknownAction>;

/** Makes the area's write thunks: `run` calls the back end and answers the notice to show. */
export function createWrite(events: WriteEvents) {
  return (run: (api: ApiClient) => Promise<string>): WriteThunk =>
    async (dispatch, _getState, { api }) => {
      dispatch(events.started());
      try {
        dispatch(events.succeeded(await run(api)));
        return true;
      } catch (error) {
        dispatch(events.failed(errorMessage(error)));
        return false;
      }
    };
}
