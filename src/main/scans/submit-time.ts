import { CREATED_AT_MAX_AHEAD_MS } from '../../shared/api/scans';
import { parseDateTime } from '../../shared/time';
import { DomainError } from '../domain-error';

/**
 * A submitted scan's time, epoch ms: the body's `created_at` when it has one (a scan made offline
 * and sent later keeps when it happened), else `now`. One further ahead of the server's clock
 * than clocks differ is refused (docs/contract/api.md#scans).
 */
export function submittedAt(createdAt: string | undefined, now: number): number {
  if (createdAt === undefined) return now;
  // The schema's date-time format is parseDateTime itself: the text parses.
  const at = parseDateTime(createdAt)!;
  if (at > now + CREATED_AT_MAX_AHEAD_MS) {
    const minutes = CREATED_AT_MAX_AHEAD_MS / 60_000;
    throw new DomainError(
      'validation_failed',
      `created_at is more than ${minutes} minutes ahead of the server's clock`,
      [{ field: 'created_at', message: `must be at most ${minutes} minutes ahead of the server's clock` }],
    );
  }
  return at;
}
