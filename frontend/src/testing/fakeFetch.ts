// A fake fetch at the API client's seam: answers by method and path, and records every call. Components and
// slices stay real; only the network is replaced.
export interface FakeCall {
  method: string;
  url: URL;
  headers: Headers;
  body: unknown;
}

type Handler = (call: FakeCall) => Response | Promise<Response>;
type Route = Handler | Response | object | string | number | boolean | null;

export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', ...headers } });
}

/**
 * `routes` keys are 'GET /api/home/home/uk/' (the path without the query string); values are a handler, a
 * canned Response, or a body to answer as JSON with status 200.
 */
export function fakeFetch(routes: Record<string, Route>) {
  const calls: FakeCall[] = [];
  const fetch = async (input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const method = (init.method ?? 'GET').toUpperCase();
    const body: unknown = typeof init.body === 'string' ? JSON.parse(init.body) : init.body instanceof FormData ? init.body : undefined;
    const call: FakeCall = { method, url, headers: new Headers(init.headers), body };
    calls.push(call);
    const route = routes[`${method} ${url.pathname}`];
    if (route === undefined) return json({ message: `No fake for ${method} ${url.pathname}` }, 404);
    if (typeof route === 'function') return (route as Handler)(call);
    if (route instanceof Response) return route.clone(); // a canned response, reusable across calls
    return json(route);
  };
  return { fetch: fetch as typeof globalThis.fetch, calls };
}

/** A fetch that never reaches a server, as when the network is down. */
export const offlineFetch = (async () => {
  throw new TypeError('Failed to fetch');
}) as typeof globalThis.fetch;
