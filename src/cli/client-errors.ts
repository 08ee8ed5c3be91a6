export { ServerError } from '../shared/api/server-error';

/** The server could not be reached at all. */
export class UnreachableError extends Error {
  override readonly name = 'UnreachableError';
}

/** A connection was made but the request broke off: a reset mid-upload, a stream that failed. */
export class TransferError extends Error {
  override readonly name = 'TransferError';
}
