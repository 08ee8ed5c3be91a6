import type { ErrorDetail } from '../shared/api/error-codes';

/** An error answer from the server, carrying the contract's error body. */
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
}

/** The server could not be reached at all. */
export class UnreachableError extends Error {
  override readonly name = 'UnreachableError';
}

/** A connection was made but the request broke off: a reset mid-upload, a stream that failed. */
export class TransferError extends Error {
  override readonly name = 'TransferError';
}
