/** A mistake in the command line: printed with the usage hint, exit code 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** `violations`: the command worked, but the scan broke its organization's policy, so scripts can gate on it. */
export const EXIT = { ok: 0, failed: 1, usage: 2, violations: 3 } as const;
