import { Type, type Static } from 'typebox';

/** Every error code of SPEC.md §3, with the HTTP status it always travels with. */
export const ERROR_STATUS = {
  invalid_json: 400,
  validation_failed: 400,
  invalid_package: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  internal: 500,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export const ErrorDetail = Type.Object({
  field: Type.Optional(Type.String()),
  entry: Type.Optional(Type.String()),
  message: Type.String(),
});
export type ErrorDetail = Static<typeof ErrorDetail>;

export const ErrorBody = Type.Object(
  {
    error: Type.Object({
      status: Type.Integer(),
      code: Type.Enum(Object.keys(ERROR_STATUS) as ErrorCode[]),
      message: Type.String(),
      details: Type.Array(ErrorDetail),
    }),
  },
  { description: 'The one error shape of every error path (SPEC.md §3).' },
);
export type ErrorBody = { error: { status: number; code: ErrorCode; message: string; details: ErrorDetail[] } };

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
