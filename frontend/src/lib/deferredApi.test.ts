// The API client that loads as a chunk of its own: calls wait for it; a chunk that fails to load fails the
// call with the spec's network message, and the next call loads again.
import { describe, expect, it, vi } from 'vitest';
import type { ApiClient } from './api';
import { ApiError, NETWORK_ERROR_MESSAGE } from './apiErrors';
import { deferredApiClient } from './deferredApi';

const client = (answer: unknown): ApiClient =>
  ({ get: vi.fn(async () => answer), post: vi.fn(), put: vi.fn(), delete: vi.fn() }) as unknown as ApiClient;

describe('deferredApiClient', () => {
  it('starts loading at once, and forwards each call, arguments and all, once loaded', async () => {
    const real = client({ product: [] });
    const load = vi.fn(async () => real);
    const api = deferredApiClient(load);
    expect(load).toHaveBeenCalledTimes(1);
    await expect(api.get('/product/{_id}', { params: { _id: 'p-1' } })).resolves.toEqual({ product: [] });
    expect(real.get).toHaveBeenCalledWith('/product/{_id}', { params: { _id: 'p-1' } });
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('fails a call as never sent when the chunk does not load, and loads again for the next', async () => {
    const load = vi
      .fn<() => Promise<ApiClient>>()
      .mockRejectedValueOnce(new TypeError('Failed to fetch dynamically imported module'))
      .mockResolvedValue(client('ok'));
    const api = deferredApiClient(load);
    const failed = await api.get('/product/').catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(ApiError);
    expect((failed as ApiError).message).toBe(NETWORK_ERROR_MESSAGE);
    await expect(api.get('/product/')).resolves.toBe('ok');
    expect(load).toHaveBeenCalledTimes(2);
  });
});
