// The store: every slice and the API client the thunks call through (loaded beside the first render:
// lib/deferredApi.ts). What survives a reload is read back
// before the first render (savedState.ts, handed in as the preloaded state) and saved by redux-persist
// (persistence.ts), which loads beside the first render: see main.tsx.
import { configureStore } from '../lib/toolkit';
import { FLUSH, PAUSE, PERSIST, PURGE, REGISTER, REHYDRATE } from 'redux-persist';
import type { ApiClient } from '../lib/api';
import { deferredApiClient } from '../lib/deferredApi';
import { userLoggedOut, withAccessFlags } from '../state/session/authSlice';
import { rootReducer, type RootState } from './rootReducer';

export type { RootState } from './rootReducer';

export interface StoreDeps {
  /** The fetch the API client uses: tests hand in a fake one at this seam. */
  fetch?: typeof globalThis.fetch;
  /** What follows a logout forced by an auth failure; a real page reload by default. */
  reload?: () => void;
}

export function makeStore(preloadedState?: Partial<RootState>, deps: StoreDeps = {}) {
  // The client needs the store (token, logout) and the store's thunks need the client: tie the knot late.
  let getState: (() => RootState) | null = null;
  let dispatchLogout: () => void = () => undefined;
  const api: ApiClient = deferredApiClient(() =>
    import('../lib/api').then(({ createApiClient }) =>
      createApiClient({
        getToken: () => getState?.().auth.token,
        onAuthFailure: () => {
          dispatchLogout();
          (deps.reload ?? (() => window.location.reload()))();
        },
        ...(deps.fetch ? { fetch: deps.fetch } : {}),
      }),
    ),
  );

  // The access flags always follow the session's role, whichever way the session arrived.
  if (preloadedState?.auth) preloadedState = { ...preloadedState, auth: withAccessFlags(preloadedState.auth) };
  const store = configureStore({
    reducer: rootReducer,
    ...(preloadedState ? { preloadedState: preloadedState as RootState } : {}),
    middleware: (getDefaultMiddleware) =>
      getDefaultMiddleware({
        thunk: { extraArgument: { api } },
        // A development check (production builds leave it out, and so its options): redux-persist's own
        // actions carry functions.
        serializableCheck: import.meta.env.PROD || { ignoredActions: [FLUSH, REHYDRATE, PAUSE, PERSIST, PURGE, REGISTER] },
      }),
  });
  getState = store.getState;
  dispatchLogout = () => store.dispatch(userLoggedOut());
  return store;
}

export type AppStore = ReturnType<typeof makeStore>;
export type AppDispatch = AppStore['dispatch'];
