import { isId } from '../../../shared/ids';

// The change feed's cursor and how a page moves it (docs/contract/api.md#sync). Pure: the service
// reads the rows, this decides what the page holds and where each bucket stands after it.
//
// A caller's visible scans fall into buckets that do not overlap: their own, and for each
// organization they own or administer, that organization's scans by others. Each bucket is read
// in (change_seq, id) order from an index of its own, and the cursor holds a position per bucket:
// an organization that becomes visible later has none, so it is read from its start.

/** The key of the caller's own bucket; an organization's bucket is keyed by its id, never empty. */
export const OWN_BUCKET = '';

/** Where a bucket's reading stands: every scan before (seq, id) was sent; id null: all of seq. */
export interface Position {
  seq: number;
  id: string | null;
}

export interface ChangeCursor {
  /** The store's change sequence the seqs belong to. */
  sequence: string;
  /** Whose visible scans the positions walk. */
  user: string;
  buckets: Map<string, Position>;
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

const VERSION = 1;

/** (change_seq, id) order, the order of the feed and of its indexes (ids compare bytewise). */
export const compareRows = (a: ChangeRow, b: ChangeRow): number =>
  a.change_seq - b.change_seq || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/**
 * The page: the first `limit` rows of every bucket together in (change_seq, id) order, and each
 * bucket's position after what the page took of it. A bucket the page took nothing of keeps its
 * position; one not read (no longer visible) is dropped. A position names the last id only when
 * the next row of its bucket shares its seq; otherwise the seq alone says "all of it", which
 * keeps cursors short.
 */
export function nextPage(
  positions: ReadonlyMap<string, Position>,
  reads: readonly BucketRows[],
  limit: number,
): ChangePage {
  const all = reads.flatMap((read) => read.rows.map((row) => ({ row, key: read.key })));
  all.sort((a, b) => compareRows(a.row, b.row));
  const taken = all.slice(0, limit);
  const takenPerBucket = new Map<string, number>();
  for (const { key } of taken) takenPerBucket.set(key, (takenPerBucket.get(key) ?? 0) + 1);

  const buckets = new Map<string, Position>();
  let more = false;
  for (const read of reads) {
    const count = takenPerBucket.get(read.key) ?? 0;
    if (read.rows.length > count) more = true;
    if (count === 0) {
      const kept = positions.get(read.key);
      if (kept) buckets.set(read.key, kept);
      continue;
    }
    const last = read.rows[count - 1]!;
    const next = read.rows[count];
    buckets.set(read.key, {
      seq: last.change_seq,
      id: next !== undefined && next.change_seq === last.change_seq ? last.id : null,
    });
  }
  return { changes: taken.map(({ row }) => row), buckets, more };
}

type Encoded = [key: string, seq: number] | [key: string, seq: number, id: string];

/** The cursor as the client passes it back: opaque, URL-safe. */
export function encodeCursor(cursor: ChangeCursor): string {
  const buckets = [...cursor.buckets].map(([key, { seq, id }]): Encoded => (id === null ? [key, seq] : [key, seq, id]));
  const json = JSON.stringify({ v: VERSION, s: cursor.sequence, u: cursor.user, b: buckets });
  return Buffer.from(json, 'utf8').toString('base64url');
}

const isSeq = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;

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
  const { v, s, u, b } = parsed as Record<string, unknown>;
  if (v !== VERSION || typeof s !== 'string' || !isId(s) || typeof u !== 'string' || !isId(u) || !Array.isArray(b)) {
    return null;
  }
  const buckets = new Map<string, Position>();
  for (const entry of b as unknown[]) {
    if (!Array.isArray(entry) || entry.length < 2 || entry.length > 3) return null;
    const [key, seq, id] = entry as unknown[];
    if (typeof key !== 'string' || (key !== OWN_BUCKET && !isId(key)) || buckets.has(key) || !isSeq(seq)) return null;
    if (entry.length === 3 && (typeof id !== 'string' || !isId(id))) return null;
    buckets.set(key, { seq, id: entry.length === 3 ? (id as string) : null });
  }
  return { sequence: s, user: u, buckets };
}
