import type { ErrorCode, ErrorDetail } from '../shared/api/errors';

/**
 * What went wrong, in the contract's words (docs/contract/errors.md#shape: a code, a message,
 * details naming fields or entries) and nothing about HTTP: services, repositories and the ZIP
 * reader throw it, and the assembly (server/errors.ts) alone turns the code into a status and a
 * response. It lives beside the features, not in the HTTP toolkit, because they all speak it.
 */
export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: ErrorDetail[] = [],
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export const notFound = (what: string): DomainError => new DomainError('not_found', `${what} not found`);
export const forbidden = (message: string): DomainError => new DomainError('forbidden', message);
export const conflict = (message: string, details: ErrorDetail[] = []): DomainError =>
  new DomainError('conflict', message, details);
