// Thunks and the spec's state pattern for data areas. A loader thunk reaches the back end only through the
// store's ApiClient (its extra argument) and reports three events: requested, received, or failed with the
// shared error handler's message. (Plain thunks rather than createAsyncThunk: they cost the first page less.)
import type { PayloadAction, ThunkAction, UnknownAction } from '@reduxjs/toolkit';
import { errorMessage, type ApiClient } from './api';

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

export interface LoaderOptions<Arg> {
  /** Lets an area fetch only when it does not already hold the data (given the store's state). */
  skip?: (state: unknown, arg: Arg) => boolean;
  /**
   * The spec (section 8): some home calls also log the failure's message. Set to the call's name for those;
   * the message is still stored in the area as for every call.
   */
  logAs?: string;
}

/** Logs a home call's failure to the console, as the spec's error catalogue has the home calls do. */
export function logFailure(call: string, message: string): void {
  console.error(`${call} failed: ${message}`);
}

/**
 * A thunk creator that calls the back end and reports the outcome as the area's events. `skip` (given the
 * store's state) lets an area fetch only when it does not already hold the data; `options.logAs` also logs a
 * failure.
 */
export function createLoader<Arg, Result>(
  events: LoaderEvents<Arg, Result>,
  call: (api: ApiClient, arg: Arg) => Promise<Result>,
  skip?: ((state: unknown, arg: Arg) => boolean) | LoaderOptions<Arg>,
): (arg: Arg) => AppThunk<Promise<void>> {
  const options: LoaderOptions<Arg> = typeof skip === 'function' ? { skip } : (skip ?? {});
  return (arg) => async (dispatch, getState, { api }) => {
    if (options.skip?.(getState(), arg)) return;
    dispatch(events.requested(arg));
    try {
      dispatch(events.received({ arg, result: await call(api, arg) }));
    } catch (error) {
      const message = errorMessage(error);
      if (options.logAs) logFailure(options.logAs, message);
      dispatch(events.failed({ arg, message }));
    }
  };
}
