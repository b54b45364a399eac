// Catches a screen that throws while rendering. A script chunk that failed to load reloads the page once
// (see lib/chunks.ts); anything else shows a message instead of a blank page. Give it the path as its key
// so that navigating away recovers.
import { Component, type ReactNode } from 'react';
import { isChunkLoadError, reloadOnceForChunkError } from '../lib/chunks';
import { ErrorView } from './ErrorView';
import ui from './ui.module.css';

interface ErrorBoundaryProps {
  children: ReactNode;
}

interface ErrorBoundaryState {
  error: Error | null;
}

export class ErrorBoundary extends Component<ErrorBoundaryProps, ErrorBoundaryState> {
  override state: ErrorBoundaryState = { error: null };

  static getDerivedStateFromError(error: unknown): ErrorBoundaryState {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  // React itself logs the error; a chunk failure additionally reloads the page once.
  override componentDidCatch(error: Error): void {
    if (isChunkLoadError(error)) reloadOnceForChunkError();
  }

  override render(): ReactNode {
    const { error } = this.state;
    if (!error) return this.props.children;
    return (
      <div className={ui.container}>
        <ErrorView
          title={isChunkLoadError(error) ? 'This page did not load' : 'Something went wrong'}
          message="Try later, or reload the page."
          onRetry={() => window.location.reload()}
        />
      </div>
    );
  }
}
