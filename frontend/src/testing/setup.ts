// Vitest setup: jest-dom matchers, and a clean DOM and storage between tests (globals are off and the run
// uses --no-isolate, so nothing is cleaned up unless we do it).
import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';

// happy-dom lays nothing out, so nothing would ever scroll into view: report every observed element as
// visible, as a tall screen would.
class VisibleIntersectionObserver {
  constructor(private readonly callback: IntersectionObserverCallback) {}
  observe(target: Element): void {
    queueMicrotask(() =>
      this.callback([{ isIntersecting: true, target } as IntersectionObserverEntry], this as unknown as IntersectionObserver),
    );
  }
  unobserve(): void {}
  disconnect(): void {}
  takeRecords(): IntersectionObserverEntry[] {
    return [];
  }
}
globalThis.IntersectionObserver = VisibleIntersectionObserver as unknown as typeof IntersectionObserver;

// index.html carries a meta description that pages update; the test document needs the same tag.
beforeEach(() => {
  if (!document.querySelector('meta[name="description"]')) {
    const meta = document.createElement('meta');
    meta.name = 'description';
    document.head.append(meta);
  }
});

afterEach(() => {
  cleanup();
  window.localStorage.clear();
  window.sessionStorage.clear();
  document.body.removeAttribute('data-scroll-locked');
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});
