// Kept free of TypeBox so that clients (the CLI) can use it without building schemas at start-up.

/** Every error code of docs/contract/errors.md#codes, with the HTTP status it always travels with. */
export const ERROR_STATUS = {
  invalid_json: 400,
  validation_failed: 400,
  invalid_package: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  request_timeout: 408,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  too_many_requests: 429,
  internal: 500,
  bad_gateway: 502,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export interface ErrorDetail {
  field?: string;
  entry?: string;
  message: string;
}

export interface ErrorBody {
  error: { status: number; code: ErrorCode; message: string; details: ErrorDetail[] };
}

export function isErrorBody(value: unknown): value is ErrorBody {
  if (typeof value !== 'object' || value === null || !('error' in value)) return false;
  const error = (value as { error: unknown }).error;
  return (
    typeof error === 'object' &&
    error !== null &&
    typeof (error as { code?: unknown }).code === 'string' &&
    typeof (error as { message?: unknown }).message === 'string'
  );
}
