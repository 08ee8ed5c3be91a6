/** A mistake in the command line: printed with the usage hint, exit code 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;
