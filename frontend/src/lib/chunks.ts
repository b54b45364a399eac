// Script chunk failures (a deploy replaced the chunk, a flaky network): reload the page once rather than
// leave a blank screen. A sessionStorage guard stops a reload loop when the chunk is really gone.
import { createElement, lazy, type ComponentType } from 'react';

const GUARD_KEY = 'chunk-reload';
/** The spec's chunk load timeout. */
export const CHUNK_LOAD_TIMEOUT_MS = 120_000;

const CHUNK_ERROR =
  /ChunkLoadError|Loading (CSS )?chunk|dynamically imported module|Importing a module script failed|Unable to preload CSS/i;

export function isChunkLoadError(error: unknown): boolean {
  if (error instanceof Error) return CHUNK_ERROR.test(`${error.name}: ${error.message}`);
  return typeof error === 'string' && CHUNK_ERROR.test(error);
}

export interface ReloadDeps {
  storage?: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;
  reload?: () => void;
}

function session(): ReloadDeps['storage'] | undefined {
  try {
    return window.sessionStorage;
  } catch {
    return undefined; // storage blocked: reloading without a guard could loop, so do not reload at all
  }
}

/** Reloads the page unless this session already did so for a chunk failure; true when it reloads. */
export function reloadOnceForChunkError({ storage = session(), reload = () => window.location.reload() }: ReloadDeps = {}): boolean {
  if (!storage || storage.getItem(GUARD_KEY)) return false;
  storage.setItem(GUARD_KEY, String(Date.now()));
  reload();
  return true;
}

/** A chunk loaded: a later failure (the next deploy) may reload again. */
export function clearChunkReloadGuard(storage = session()): void {
  storage?.removeItem(GUARD_KEY);
}

function withChunkTimeout<T>(loading: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new Error('Loading chunk failed (timed out)');
      error.name = 'ChunkLoadError';
      reject(error);
    }, ms);
  });
  return Promise.race([loading, timeout]).finally(() => clearTimeout(timer));
}

/** A lazily loaded page that can also be loaded ahead of its first render. */
export type LazyPage<P extends object> = ComponentType<P> & {
  /**
   * Loads the page's chunk now; once it has arrived the page renders at once, without suspending. A
   * prerendered page (scripts/prerender-pages.mjs) waits for this before React's first render, so that render
   * puts up the same page rather than a loading state.
   */
  preload(): Promise<void>;
};

/** React.lazy with the reload-once rule and the spec's 120 s chunk timeout, and a `preload`. */
export function lazyPage<P extends object>(
  load: () => Promise<{ default: ComponentType<P> }>,
  deps: ReloadDeps & { timeoutMs?: number } = {},
): LazyPage<P> {
  let loaded: ComponentType<P> | null = null;
  let loading: Promise<{ default: ComponentType<P> }> | null = null;
  const loadOnce = () => {
    loading ??= loadWithRules(load, deps).then((module) => {
      loaded = module.default;
      return module;
    });
    return loading;
  };
  const Lazy = lazy(loadOnce);
  function Page(props: P) {
    return loaded ? createElement(loaded, props) : createElement(Lazy as ComponentType<P>, props);
  }
  Page.preload = () => loadOnce().then(() => undefined);
  return Page;
}

async function loadWithRules<M>(load: () => Promise<M>, deps: ReloadDeps & { timeoutMs?: number }): Promise<M> {
  try {
    const module = await withChunkTimeout(load(), deps.timeoutMs ?? CHUNK_LOAD_TIMEOUT_MS);
    clearChunkReloadGuard(deps.storage);
    return module;
  } catch (error) {
    if (isChunkLoadError(error) && reloadOnceForChunkError(deps)) {
      return new Promise<never>(() => undefined); // the page is reloading; render nothing meanwhile
    }
    throw error;
  }
}
