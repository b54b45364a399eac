// A screen part's own API call, for parts that load, fail with a retry, or show their value on their own
// (the dashboard's cards, the bin's lists): the state, and what renders each step.
import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { useAppDispatch } from '../app/hooks';
import { ErrorView, LoadingView } from '../components/StatusView';
import { errorMessage } from '../lib/api';
import type { AppThunk } from '../lib/thunk';

export type Loaded<T> = { status: 'loading' } | { status: 'failed'; message: string } | { status: 'loaded'; value: T };

/** One part's own call: loading, then its value or a failure with a retry (the second element). */
export function useCall<T>(call: () => AppThunk<Promise<T>>): [Loaded<T>, () => void] {
  const dispatch = useAppDispatch();
  const [state, setState] = useState<Loaded<T>>({ status: 'loading' });
  const run = useCallback(() => {
    setState({ status: 'loading' });
    dispatch(call()).then(
      (value) => setState({ status: 'loaded', value }),
      (error: unknown) => setState({ status: 'failed', message: errorMessage(error) }),
    );
  }, [dispatch, call]);
  useEffect(run, [run]);
  return [state, run];
}

/** The part as its call stands: a loading placeholder, the failure with 'Try again', or `children(value)`. */
export function Part<T>({ state, retry, what, children }: { state: Loaded<T>; retry: () => void; what: string; children: (value: T) => ReactNode }) {
  if (state.status === 'loading') return <LoadingView label={`Loading ${what}`} cards={1} />;
  if (state.status === 'failed') return <ErrorView title={`We could not load ${what}`} message={state.message} onRetry={retry} />;
  return <>{children(state.value)}</>;
}
