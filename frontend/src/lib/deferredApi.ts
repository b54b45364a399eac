// The API client (api.ts) as a chunk of its own: no screen calls the back end before the first render, so
// the first page's script need not carry the client. The chunk starts loading when the client is made (with
// the store, before the first render); a call made before it is in waits for it. A chunk that does not load
// fails the call as a request that never reached the server would, and the next call tries again.
import type { ApiClient } from './api';
import { ApiError, NETWORK_ERROR_MESSAGE } from './apiErrors';

export function deferredApiClient(load: () => Promise<ApiClient>): ApiClient {
  let client: Promise<ApiClient> | null = null;
  const loaded = () =>
    (client ??= load().catch(() => {
      client = null;
      throw new ApiError(NETWORK_ERROR_MESSAGE, null);
    }));
  loaded().catch(() => undefined);
  const call = <M extends keyof ApiClient>(method: M) =>
    ((...args: unknown[]) =>
      loaded().then((api) => (api[method] as (...a: unknown[]) => Promise<unknown>)(...args))) as ApiClient[M];
  return { get: call('get'), post: call('post'), put: call('put'), delete: call('delete') };
}
