// How a failed back-end call reads: the spec's shared error handler's message, and the error the API
// client throws. A module of its own, apart from the client (api.ts, which re-exports these): the thunks need
// the message on the first page, the client itself loads beside the first render (app/store.ts).

/** The spec's text for a request that never reached the server. */
export const NETWORK_ERROR_MESSAGE = 'not fund 404';

/** A failed call: `message` is what the shopper's area stores and shows. */
export class ApiError extends Error {
  readonly status: number | null;
  /** The refusal's whole JSON body, for the few answers that say more than `message` (a 409's new figures). */
  readonly body: unknown;

  constructor(message: string, status: number | null, body: unknown = null) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.body = body;
  }
}

/** The message the shared handler stores for any thrown value. */
export function errorMessage(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  if (error instanceof Error && error.message) return error.message;
  if (typeof error === 'string' && error) return error;
  return 'Try later';
}
