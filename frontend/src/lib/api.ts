// The one place that talks to the back end. Every call goes to `/api` on the page's own origin, sends the
// bearer token when there is one, and every failure goes through the spec's shared error handler: a network
// failure reads 'not fund 404', otherwise the server's `{message}` or the error's own message; an auth
// failure logs the shopper out and reloads the page.
//
// Calls are typed by the API's OpenAPI document: `api-schema.ts` is generated from docs/openapi.json, which
// is read off the Rust route tables (`make openapi`). A path is written as the document writes it, without
// `/api` (`'/product/{_id}'`, with `params: { _id }`), and its body, query and reply types come from there,
// so a change of shape in Rust breaks this build rather than the shop.

import type { components, paths } from './api-schema';
import { ApiError, errorMessage, NETWORK_ERROR_MESSAGE } from './apiErrors';

export { ApiError, errorMessage, NETWORK_ERROR_MESSAGE };

/** The API's named shapes (`Schemas['Product']`), as the Rust types describe them. */
export type Schemas = components['schemas'];

type Method = 'get' | 'post' | 'put' | 'delete';

/** The document's paths that answer `M`, without their `/api` prefix. */
export type ApiPath<M extends Method> = {
  [P in keyof paths]: paths[P] extends Record<M, object> ? (P extends `/api${infer Rest}` ? Rest : never) : never;
}[keyof paths];

type Operation<M extends Method, P extends string> = `/api${P}` extends keyof paths ? paths[`/api${P}`][M] : never;

type SuccessStatus = 200 | 201 | 202 | 204;
type Json<R> = R extends { content: { 'application/json': infer B } } ? B : undefined;
type Responses<O> = O extends { responses: infer R } ? R : never;

/** What a successful call answers (a union where a route has more than one success, as checkout does). */
export type Reply<M extends Method, P extends string> = Json<Responses<Operation<M, P>>[SuccessStatus & keyof Responses<Operation<M, P>>]>;

/** The body a route reads: its JSON schema's type, or FormData for a multipart upload. */
export type Body<M extends Method, P extends string> =
  Operation<M, P> extends { requestBody: { content: { 'application/json': infer B } } }
    ? B
    : Operation<M, P> extends { requestBody: { content: { 'multipart/form-data': unknown } } }
      ? FormData
      : undefined;

type PathParams<O> = O extends { parameters: { path: infer Params } } ? Params : never;
type QueryParams<O> = O extends { parameters: { query?: infer Query } } ? Query : never;

/** Messages after which the stored session is useless: log out and reload. */
const AUTH_FAILURE_MESSAGES = new Set([
  'Not authorized',
  'token failed',
  'Not authorized, token failed',
  'Not authorized, no token',
  'The person does not exist in the database',
]);

/** A null or unreadable user id, as the original back end worded it. */
const NULL_ID =
  /Cannot read properties of (null|undefined) \(reading '_id'\)|Cannot read property '_id' of (null|undefined)|Cast to ObjectId failed for value "?null/;

export function isAuthFailure(message: string): boolean {
  const text = message.trim();
  return AUTH_FAILURE_MESSAGES.has(text) || NULL_ID.test(text);
}

/** `/api` resolved against the page's origin (fetch under a test DOM needs absolute URLs). */
export function apiBaseUrl(): string {
  return new URL('/api', window.location.origin).toString();
}

/** `/uploads/{name}` for an image the back end stored. */
export function uploadUrl(name: string): string {
  return `/uploads/${encodeURIComponent(name)}`;
}

export interface ApiClientOptions {
  /** The current bearer token, read at call time so a login or logout takes effect at once. */
  getToken: () => string | null | undefined;
  /** Logs out and reloads; called when a signed-in call fails with an auth failure message. */
  onAuthFailure: () => void;
  fetch?: typeof globalThis.fetch;
  baseUrl?: () => string;
}

type Query = Record<string, string | number | null | undefined>;

/** Options of one call: the path's parameters and the query as the document types them. */
export interface CallOptions<O> {
  params?: PathParams<O>;
  query?: QueryParams<O>;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** A visitor call the spec sends with no token (the customer code lookup): no Authorization header. */
  withoutToken?: boolean;
  /** Reads the headers of a successful answer (the checkout's `Order-Key`). */
  onHeaders?: (headers: Headers) => void;
}

interface RequestOptions {
  params?: Record<string, string> | undefined;
  query?: Query | undefined;
  body?: unknown;
  headers?: Record<string, string> | undefined;
  signal?: AbortSignal | undefined;
  withoutToken?: boolean | undefined;
  onHeaders?: ((headers: Headers) => void) | undefined;
}

/** The options argument: required, with every placeholder filled, when the path has `{...}` in it. */
type OptionsArg<M extends Method, P extends string> = [PathParams<Operation<M, P>>] extends [never]
  ? [options?: CallOptions<Operation<M, P>>]
  : [options: CallOptions<Operation<M, P>> & { params: PathParams<Operation<M, P>> }];

/** The body and options: a route that reads no body may leave it out (or pass undefined before options). */
type BodyArgs<M extends Method, P extends string> = [Body<M, P>] extends [undefined]
  ? [body?: undefined, ...OptionsArg<M, P>]
  : [body: Body<M, P>, ...OptionsArg<M, P>];

export interface ApiClient {
  get<P extends ApiPath<'get'>>(path: P, ...options: OptionsArg<'get', P>): Promise<Reply<'get', P>>;
  post<P extends ApiPath<'post'>>(path: P, ...args: BodyArgs<'post', P>): Promise<Reply<'post', P>>;
  put<P extends ApiPath<'put'>>(path: P, ...args: BodyArgs<'put', P>): Promise<Reply<'put', P>>;
  delete<P extends ApiPath<'delete'>>(path: P, ...options: OptionsArg<'delete', P>): Promise<Reply<'delete', P>>;
}

/**
 * `'/product/{_id}'` with `{ _id: 'p 1' }` is `'/product/p%201'`; a missing parameter is a bug, thrown. An
 * '@' stays as it is: a path segment allows it, and an e-mail in a path reads better in logs than %40.
 */
export function expandPath(path: string, params: Record<string, string> = {}): string {
  return path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`${path} needs the parameter ${name}`);
    return encodeURIComponent(value).replace(/%40/g, '@');
  });
}

/** The refusal a failed response carries: its message, and its body for the callers that read more. */
async function refusalOf(response: Response): Promise<ApiError> {
  try {
    const body = (await response.json()) as { message?: unknown } | null;
    const message = body?.message;
    if (typeof message === 'string' && message) return new ApiError(message, response.status, body);
  } catch {
    // Not JSON (or no body): the status is all there is to say.
  }
  return new ApiError(`Request failed with status code ${response.status}`, response.status);
}

/**
 * A GET that index.html's boot script started while the page was still parsing (a product deep link asks
 * for its drink at once), keyed by path and query; each is taken once.
 */
function takePrefetched(key: string): Promise<Response> | undefined {
  const early = (window as { __prefetched?: Record<string, Promise<Response>> }).__prefetched;
  const response = early?.[key];
  if (response) delete early[key];
  return response;
}

const isAbort = (error: unknown): boolean => error instanceof DOMException && error.name === 'AbortError';

export function createApiClient(options: ApiClientOptions): ApiClient {
  const baseUrl = options.baseUrl ?? apiBaseUrl;

  async function request<T>(method: string, path: string, { params, query, body, headers, signal, withoutToken, onHeaders }: RequestOptions = {}) {
    const url = new URL(`${baseUrl().replace(/\/$/, '')}/${expandPath(path, params).replace(/^\//, '')}`);
    for (const [key, value] of Object.entries(query ?? {})) {
      if (value != null) url.searchParams.set(key, String(value));
    }
    const token = withoutToken ? null : options.getToken();
    // A FormData body (image uploads) goes as is: the browser writes its multipart Content-Type.
    const form = body instanceof FormData;
    const init: RequestInit = {
      method,
      headers: {
        Accept: 'application/json',
        ...(body === undefined || form ? {} : { 'Content-Type': 'application/json' }),
        ...(token ? { Authorization: `Bearer ${token}` } : {}),
        ...headers,
      },
      body: body === undefined ? null : form ? body : JSON.stringify(body),
      signal: signal ?? null,
    };
    try {
      const early = method === 'GET' ? takePrefetched(url.pathname + url.search) : undefined;
      const response = await (early ?? (options.fetch ?? fetch)(url, init)).catch((error: unknown) => {
        throw isAbort(error) ? error : new ApiError(NETWORK_ERROR_MESSAGE, null);
      });
      if (!response.ok) throw await refusalOf(response);
      onHeaders?.(response.headers);
      const text = response.status === 204 ? '' : await response.text();
      return (text ? JSON.parse(text) : undefined) as T;
    } catch (error) {
      if (isAbort(error)) throw error;
      const message = errorMessage(error);
      // Without a token there is no session to drop, and reloading would only repeat the same failure.
      if (token && isAuthFailure(message)) options.onAuthFailure();
      throw error instanceof ApiError ? error : new ApiError(message, null);
    }
  }

  // The typed surface over one untyped request: the document's types are checked at each call site.
  const untyped = (opts: unknown) => (opts ?? {}) as RequestOptions;
  return {
    get: (path, ...[opts]) => request('GET', path, untyped(opts)),
    post: (path, ...[body, opts]) => request('POST', path, { ...untyped(opts), body }),
    put: (path, ...[body, opts]) => request('PUT', path, { ...untyped(opts), body }),
    delete: (path, ...[opts]) => request('DELETE', path, untyped(opts)),
  };
}
