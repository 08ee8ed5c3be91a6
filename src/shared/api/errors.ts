import { Type } from 'typebox';
import { ERROR_STATUS, type ErrorCode } from './error-codes';

export { ERROR_STATUS, isErrorBody, type ErrorBody, type ErrorCode, type ErrorDetail } from './error-codes';

const ErrorDetailSchema = Type.Object({
  field: Type.Optional(Type.String()),
  entry: Type.Optional(Type.String()),
  message: Type.String(),
});

/** The schema of ErrorBody, for route responses and the OpenAPI document. */
export const ErrorBodySchema = Type.Object(
  {
    error: Type.Object({
      status: Type.Integer(),
      code: Type.Enum(Object.keys(ERROR_STATUS) as ErrorCode[]),
      message: Type.String(),
      details: Type.Array(ErrorDetailSchema),
    }),
  },
  { description: 'The one error shape of every error path (docs/contract/errors.md#shape).' },
);
