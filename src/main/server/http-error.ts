import type { ErrorCode, ErrorDetail } from '../../shared/api/errors';
import { DomainError } from '../domain-error';

/** A refusal that only HTTP has words for, carrying the headers it needs (Allow, WWW-Authenticate). */
export class HttpError extends DomainError {
  constructor(
    code: ErrorCode,
    message: string,
    details: ErrorDetail[],
    readonly headers: Record<string, string>,
  ) {
    super(code, message, details);
    this.name = 'HttpError';
  }
}
