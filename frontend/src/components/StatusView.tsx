// The spec's state pattern on screen: loading, then the content, an error view whose 'Try again' asks for
// a reload, or an empty state.
import type { ReactNode } from 'react';
import type { Status } from '../lib/thunk';
import { ErrorView } from './ErrorView';
import { LoadingView } from './LoadingView';
import styles from './StatusView.module.css';

export { ErrorView, LoadingView };

export function EmptyView({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className={styles.panel}>
      <h2 className={styles.title}>{title}</h2>
      {children}
    </div>
  );
}

interface StatusViewProps {
  status: Status;
  error: string | null;
  onRetry: () => void;
  /** True when the loaded data has nothing to show. */
  isEmpty: boolean;
  /** What loads, for screen readers: 'Loading drinks'. */
  loadingLabel: string;
  errorTitle: string;
  empty: ReactNode;
  children: ReactNode;
}

export function StatusView({ status, error, onRetry, isEmpty, loadingLabel, errorTitle, empty, children }: StatusViewProps) {
  if (status === 'failed') {
    const view = <ErrorView title={errorTitle} message={error ?? 'Try later'} onRetry={onRetry} />;
    // A failed 'load more' keeps what is already shown and puts the error after it.
    return isEmpty ? view : (
      <>
        {children}
        {view}
      </>
    );
  }
  if (status === 'idle' || (status === 'loading' && isEmpty)) return <LoadingView label={loadingLabel} />;
  if (isEmpty) return <>{empty}</>;
  return <>{children}</>;
}
