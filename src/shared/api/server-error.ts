// TypeBox-free like error-codes.ts: the CLI and the renderer both use it.
import { isErrorBody, type ErrorDetail } from './error-codes';

/** An error answer from a Scandesk server, carrying the contract's error body (docs/contract/errors.md#shape). */
export class ServerError extends Error {
  override readonly name = 'ServerError';

  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: ErrorDetail[],
  ) {
    super(message);
  }

  /** The error an answer's body describes; `fallback` words a body that is not the contract's. */
  static fromBody(status: number, body: unknown, fallback: string): ServerError {
    return isErrorBody(body)
      ? new ServerError(status, body.error.code, body.error.message, body.error.details ?? [])
      : new ServerError(status, 'unknown', fallback, []);
  }
}
