// A script chunk that fails to load reloads the page once, never in a loop.
import { render, screen } from '@testing-library/react';
import { Suspense } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { clearChunkReloadGuard, isChunkLoadError, lazyPage, reloadOnceForChunkError } from './chunks';

function memoryStorage() {
  const data = new Map<string, string>();
  return {
    getItem: (key: string) => data.get(key) ?? null,
    setItem: (key: string, value: string) => void data.set(key, value),
    removeItem: (key: string) => void data.delete(key),
  };
}

describe('chunk failures', () => {
  it.each([
    Object.assign(new Error('Loading chunk 42 failed.'), { name: 'ChunkLoadError' }),
    new Error('Loading chunk failed'),
    new TypeError('Failed to fetch dynamically imported module: https://shop/assets/ShopPage-abc.js'),
    new TypeError('Importing a module script failed.'),
    new Error('Loading CSS chunk 7 failed.'),
  ])('recognises %s', (error) => {
    expect(isChunkLoadError(error)).toBe(true);
  });

  it('does not mistake other errors for chunk failures', () => {
    expect(isChunkLoadError(new TypeError("Cannot read properties of undefined (reading 'map')"))).toBe(false);
  });

  it('reloads once, then not again in the same session until a chunk loads', () => {
    const storage = memoryStorage();
    const reload = vi.fn();
    expect(reloadOnceForChunkError({ storage, reload })).toBe(true);
    expect(reloadOnceForChunkError({ storage, reload })).toBe(false);
    expect(reload).toHaveBeenCalledTimes(1);
    clearChunkReloadGuard(storage);
    expect(reloadOnceForChunkError({ storage, reload })).toBe(true);
  });

  it('a lazily loaded screen whose chunk fails reloads the page instead of going blank', async () => {
    const reload = vi.fn();
    const storage = memoryStorage();
    const failing = (): Promise<{ default: () => null }> =>
      Promise.reject(new TypeError('Failed to fetch dynamically imported module: x.js'));
    const Screen = lazyPage(failing, {
      reload,
      storage,
    });
    render(
      <Suspense fallback={<p>Loading</p>}>
        <Screen />
      </Suspense>,
    );
    await vi.waitFor(() => expect(reload).toHaveBeenCalledTimes(1));
    expect(screen.getByText('Loading')).toBeInTheDocument();
  });

  it('a chunk that loads clears the guard', async () => {
    const storage = memoryStorage();
    storage.setItem('chunk-reload', '1');
    const Screen = lazyPage(() => Promise.resolve({ default: () => <p>Shop</p> }), { storage });
    render(
      <Suspense fallback={null}>
        <Screen />
      </Suspense>,
    );
    expect(await screen.findByText('Shop')).toBeInTheDocument();
    expect(storage.getItem('chunk-reload')).toBeNull();
  });

  it('gives up on a chunk after the spec timeout, as a chunk failure', async () => {
    vi.useFakeTimers();
    const reload = vi.fn();
    const Screen = lazyPage((): Promise<{ default: () => null }> => new Promise(() => undefined), { reload, storage: memoryStorage(), timeoutMs: 120_000 });
    render(
      <Suspense fallback={null}>
        <Screen />
      </Suspense>,
    );
    await vi.advanceTimersByTimeAsync(119_999);
    expect(reload).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('a preloaded screen renders at once, without its fallback', async () => {
    const Screen = lazyPage(() => Promise.resolve({ default: () => <p>Shop</p> }), { storage: memoryStorage() });
    await Screen.preload();
    render(
      <Suspense fallback={<p>Loading</p>}>
        <Screen />
      </Suspense>,
    );
    // Synchronously: no fallback was ever committed.
    expect(screen.getByText('Shop')).toBeInTheDocument();
    expect(screen.queryByText('Loading')).toBeNull();
  });

  it('a screen loads its chunk once, whether preloaded or rendered first', async () => {
    const load = vi.fn(() => Promise.resolve({ default: () => <p>Shop</p> }));
    const Screen = lazyPage(load, { storage: memoryStorage() });
    render(
      <Suspense fallback={null}>
        <Screen />
      </Suspense>,
    );
    await Screen.preload();
    expect(await screen.findByText('Shop')).toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(1);
  });
});
