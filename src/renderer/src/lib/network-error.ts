/**
 * No answer at all: the server stopped, is restarting, or the network is down. Kept apart from
 * ServerError (an answer the server gave) because it is one fact about the whole page, said once,
 * not something each card that asked should repeat.
 */
export class NetworkError extends Error {
  constructor(
    readonly origin: string,
    options?: ErrorOptions,
  ) {
    super(`Can't reach the Scandesk server at ${origin}`, options);
    this.name = 'NetworkError';
  }
}

/** fetch rejects (rather than answers) only when no response came, or when the caller aborted. */
export function asNetworkError(error: unknown, origin: string): unknown {
  if (error instanceof DOMException && error.name === 'AbortError') return error;
  return new NetworkError(origin, { cause: error });
}
