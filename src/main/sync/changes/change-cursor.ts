import { createHash } from 'node:crypto';
import { isId } from '../../../shared/ids';

// The change feed's cursor and how a page moves it (docs/contract/api.md#sync). Pure: the service
// reads the rows, this decides what the page holds and where each bucket stands after it.
//
// A caller's visible scans fall into buckets that do not overlap: their own, and for each
// organization they own or administer, that organization's scans by others. Each bucket is read
// in (change_seq, id) order from an index of its own, and every bucket has a position: an
// organization that becomes visible later has none, so it is read from its start.
//
// A page leaves every bucket it read at one position (the last row it took) unless the bucket
// stood further on, so positions come in a few groups: usually one, two while an organization
// the caller came to manage catches up. The cursor holds each group's position and its buckets:
// their keys while few, else a digest of them whose keys the server keeps (docs/sync.md#change-feed-and-cursor),
// so that it stays short for thousands of organizations.

/** The key of the caller's own bucket; an organization's bucket is keyed by its id, never empty. */
export const OWN_BUCKET = '';

/** Where a bucket's reading stands: every scan before (seq, id) was sent; id null: all of seq. */
export interface Position {
  seq: number;
  id: string | null;
}

/** Buckets standing at one position: their keys (sorted), or the digest of those keys. */
export interface CursorGroup {
  position: Position;
  keys: string[] | { digest: string };
}

export interface ChangeCursor {
  /** The store's change sequence the seqs belong to. */
  sequence: string;
  /** Whose visible scans the positions walk. */
  user: string;
  groups: CursorGroup[];
}

export interface ChangeRow {
  id: string;
  change_seq: number;
}

/** One bucket's rows after its position, in (change_seq, id) order, at most `limit + 1` of them. */
export interface BucketRows {
  key: string;
  rows: readonly ChangeRow[];
}

export interface ChangePage {
  changes: ChangeRow[];
  buckets: Map<string, Position>;
  more: boolean;
}

/** Older cursors (a position per bucket, keys inline) are still read, never written. */
const VERSION = 2;
const VERSION_ONE = 1;

/** At most this many buckets are named in the cursor itself; more go by digest. */
export const INLINE_KEYS = 32;
/** At most this many positions; more are merged down (a lower position only reads a few rows again). */
export const MAX_GROUPS = 8;

/** (change_seq, id) order, the order of the feed and of its indexes (ids compare bytewise). */
export const compareRows = (a: ChangeRow, b: ChangeRow): number =>
  a.change_seq - b.change_seq || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** Position order: (seq, id), where an id null ("all of seq") comes after every id of its seq. */
export function comparePositions(a: Position, b: Position): number {
  if (a.seq !== b.seq) return a.seq - b.seq;
  if (a.id === b.id) return 0;
  if (a.id === null) return 1;
  if (b.id === null) return -1;
  return a.id < b.id ? -1 : 1;
}

/**
 * The page: the first `limit` rows of every bucket together in (change_seq, id) order, and each
 * bucket's position after it. Every bucket read stands at the last row taken (all its rows up to
 * it were taken, or it had none there), unless it already stood further on; one not read (no
 * longer visible) is dropped; a page that took nothing moves nothing. The position names the last
 * id only when a bucket's next row shares its seq; otherwise the seq alone says "all of it".
 */
export function nextPage(
  positions: ReadonlyMap<string, Position>,
  reads: readonly BucketRows[],
  limit: number,
): ChangePage {
  const all = reads.flatMap((read) => read.rows.map((row) => ({ row, key: read.key })));
  all.sort((a, b) => compareRows(a.row, b.row));
  const taken = all.slice(0, limit);
  const more = all.length > taken.length;
  const last = taken.at(-1)?.row;
  const buckets = new Map<string, Position>();
  if (last === undefined) {
    for (const read of reads) {
      const kept = positions.get(read.key);
      if (kept) buckets.set(read.key, kept);
    }
    return { changes: [], buckets, more };
  }
  const next = all[taken.length]?.row;
  const reached: Position = {
    seq: last.change_seq,
    id: next !== undefined && next.change_seq === last.change_seq ? last.id : null,
  };
  for (const read of reads) {
    const kept = positions.get(read.key);
    buckets.set(read.key, kept && comparePositions(kept, reached) > 0 ? kept : reached);
  }
  return { changes: taken.map(({ row }) => row), buckets, more };
}

/** The digest that stands for a set of bucket keys (order aside): 22 URL-safe characters. */
export function bucketSetDigest(keys: readonly string[]): string {
  return createHash('sha256')
    .update([...keys].sort().join('\n'))
    .digest('base64url')
    .slice(0, 22);
}

/**
 * The buckets grouped by position, lowest first, each group's keys sorted; at most MAX_GROUPS,
 * the lowest merged into one another (to the lower position) until they fit.
 */
export function groupPositions(buckets: ReadonlyMap<string, Position>): { position: Position; keys: string[] }[] {
  const groups: { position: Position; keys: string[] }[] = [];
  const sorted = [...buckets].sort(([, a], [, b]) => comparePositions(a, b));
  for (const [key, position] of sorted) {
    const group = groups.at(-1);
    if (group && comparePositions(group.position, position) === 0) group.keys.push(key);
    else groups.push({ position, keys: [key] });
  }
  while (groups.length > MAX_GROUPS) {
    const [lowest, second] = groups.splice(0, 2) as [(typeof groups)[number], (typeof groups)[number]];
    groups.unshift({ position: lowest.position, keys: [...lowest.keys, ...second.keys] });
  }
  for (const group of groups) group.keys.sort();
  return groups;
}

type EncodedGroup = [seq: number, id: string | null, keys: string[] | string];

/** The cursor as the client passes it back: opaque, URL-safe. */
export function encodeCursor(cursor: ChangeCursor): string {
  const groups = cursor.groups.map(({ position, keys }): EncodedGroup => [
    position.seq,
    position.id,
    Array.isArray(keys) ? keys : keys.digest,
  ]);
  const json = JSON.stringify({ v: VERSION, s: cursor.sequence, u: cursor.user, g: groups });
  return Buffer.from(json, 'utf8').toString('base64url');
}

const isSeq = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;
const isKey = (value: unknown): value is string => typeof value === 'string' && (value === OWN_BUCKET || isId(value));
const isDigest = (value: unknown): value is string => typeof value === 'string' && /^[A-Za-z0-9_-]{22}$/.test(value);

/** A version-1 cursor's buckets, `[key, seq]` or `[key, seq, id]` each, as one group per bucket. */
function groupsOfVersionOne(b: unknown): CursorGroup[] | null {
  if (!Array.isArray(b)) return null;
  const groups: CursorGroup[] = [];
  for (const entry of b as unknown[]) {
    if (!Array.isArray(entry) || entry.length < 2 || entry.length > 3) return null;
    const [key, seq, id] = entry as unknown[];
    if (!isKey(key) || !isSeq(seq)) return null;
    if (entry.length === 3 && (typeof id !== 'string' || !isId(id))) return null;
    groups.push({ position: { seq, id: entry.length === 3 ? (id as string) : null }, keys: [key] });
  }
  return groups;
}

function groupsOfVersionTwo(g: unknown): CursorGroup[] | null {
  if (!Array.isArray(g) || g.length > MAX_GROUPS) return null;
  const groups: CursorGroup[] = [];
  for (const entry of g as unknown[]) {
    if (!Array.isArray(entry) || entry.length !== 3) return null;
    const [seq, id, keys] = entry as unknown[];
    if (!isSeq(seq) || (id !== null && (typeof id !== 'string' || !isId(id)))) return null;
    if (Array.isArray(keys)) {
      if (keys.length === 0 || keys.length > INLINE_KEYS || !keys.every(isKey)) return null;
      groups.push({ position: { seq, id }, keys: keys as string[] });
    } else if (isDigest(keys)) groups.push({ position: { seq, id }, keys: { digest: keys } });
    else return null;
  }
  return groups;
}

/** The cursor `text` stands for, or null when it is not one this server made (the client starts over). */
export function decodeCursor(text: string): ChangeCursor | null {
  if (!/^[A-Za-z0-9_-]+$/.test(text)) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return null;
  const { v, s, u, b, g } = parsed as Record<string, unknown>;
  if (typeof s !== 'string' || !isId(s) || typeof u !== 'string' || !isId(u)) return null;
  const groups = v === VERSION ? groupsOfVersionTwo(g) : v === VERSION_ONE ? groupsOfVersionOne(b) : null;
  return groups && { sequence: s, user: u, groups };
}

/**
 * The position of every bucket `groups` name, once each digest is replaced by its keys
 * (`keysOf`); null when a digest is unknown or a bucket is named twice.
 */
export function spreadGroups(
  groups: readonly CursorGroup[],
  keysOf: (digest: string) => readonly string[] | undefined,
): Map<string, Position> | null {
  const buckets = new Map<string, Position>();
  for (const { position, keys } of groups) {
    const named = Array.isArray(keys) ? keys : keysOf((keys as { digest: string }).digest);
    if (!named) return null;
    for (const key of named) {
      if (buckets.has(key)) return null;
      buckets.set(key, position);
    }
  }
  return buckets;
}
