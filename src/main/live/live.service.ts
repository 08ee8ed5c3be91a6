import type { Db } from '../db/index';
import { LiveStreams, type StreamFilter } from './live-streams';

export type { StreamFilter } from './live-streams';

/**
 * Ends at once the open GET /v1/events streams of `db` in this process that match `filter`
 * (every field given; none given ends none), as a credential or user ends; how many it ended.
 * Streams of other processes on the same store end at their next credential check.
 */
export function endStreams(db: Db, filter: StreamFilter): number {
  return LiveStreams.existing(db)?.end(filter) ?? 0;
}
