import { ERROR_STATUS, type ErrorBody, type ErrorCode, type ErrorDetail } from '../../shared/api/errors';

/** An error meant for the client: carries its code, and the status follows from the code. */
export class ApiError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: ErrorDetail[] = [],
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.status = ERROR_STATUS[code];
  }

  toBody(): ErrorBody {
    return { error: { status: this.status, code: this.code, message: this.message, details: this.details } };
  }
}

export const notFound = (what: string): ApiError => new ApiError('not_found', `${what} not found`);
export const forbidden = (message: string): ApiError => new ApiError('forbidden', message);
export const conflict = (message: string, details: ErrorDetail[] = []): ApiError =>
  new ApiError('conflict', message, details);
