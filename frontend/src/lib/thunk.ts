// Thunks and the spec's state pattern for data areas. A loader thunk reaches the back end only through the
// store's ApiClient (its extra argument) and reports three events: requested, received, or failed with the
// shared error handler's message. (Plain thunks rather than createAsyncThunk: they cost the first page less.)
import type { PayloadAction, ThunkAction, UnknownAction } from '@reduxjs/toolkit';
import type { ApiClient } from './api';
import { errorMessage } from './apiErrors';

export interface ThunkExtra {
  api: ApiClient;
}

export type AppThunk<R = void> = ThunkAction<R, unknown, ThunkExtra, UnknownAction>;

/** The spec's state pattern for a data area: loading, then loaded or failed, plus a reload flag. */
export type Status = 'idle' | 'loading' | 'loaded' | 'failed';

export interface Loadable {
  status: Status;
  error: string | null;
  /** Set by a retry (or after a write); the screen sees it and fetches again. */
  reload: boolean;
}

export const initialLoadable: Loadable = { status: 'idle', error: null, reload: false };

export interface Received<Arg, Result> {
  arg: Arg;
  result: Result;
}

export interface Failed<Arg> {
  arg: Arg;
  message: string;
}

interface LoaderEvents<Arg, Result> {
  requested: (arg: Arg) => PayloadAction<Arg>;
  received: (payload: Received<Arg, Result>) => PayloadAction<Received<Arg, Result>>;
  failed: (payload: Failed<Arg>) => PayloadAction<Failed<Arg>>;
}

/**
 * A thunk creator that calls the back end and reports the outcome as the area's events. `skip` (given the
 * store's state) lets an area fetch only when it does not already hold the data. `logAs` names a call whose
 * failure is also logged: the spec (section 8) has some home calls log the message, besides storing it.
 */
export function createLoader<Arg, Result>(
  events: LoaderEvents<Arg, Result>,
  call: (api: ApiClient, arg: Arg) => Promise<Result>,
  skip?: ((state: unknown, arg: Arg) => boolean) | null,
  logAs?: string,
): (arg: Arg) => AppThunk<Promise<void>> {
  return (arg) => async (dispatch, getState, { api }) => {
    if (skip?.(getState(), arg)) return;
    dispatch(events.requested(arg));
    try {
      dispatch(events.received({ arg, result: await call(api, arg) }));
    } catch (error) {
      const message = errorMessage(error);
      if (logAs) console.error(`${logAs} failed: ${message}`);
      dispatch(events.failed({ arg, message }));
    }
  };
}
