import type { Executor, ScanRow, SyncPushRow } from '../../db/index';
import { visibleTo } from '../../scans/scans.repository';

// The store lookups of a whole package at once: each a query per IN list of ids, where placing
// and storing its scans one by one would take a query per scan. Run in the caller's transaction
// (or outside any, before it).

/** Ids per IN list: a few hundred parameters, far under any engine's limit. */
const IDS_PER_QUERY = 500;

async function chunked<T>(ids: Iterable<string>, query: (ids: string[]) => Promise<T[]>): Promise<T[]> {
  const unique = [...new Set(ids)];
  const rows: T[] = [];
  for (let start = 0; start < unique.length; start += IDS_PER_QUERY) {
    rows.push(...(await query(unique.slice(start, start + IDS_PER_QUERY))));
  }
  return rows;
}

/** The scans stored under `ids`, by id. */
export async function findScansById(db: Executor, ids: Iterable<string>): Promise<Map<string, ScanRow>> {
  const rows = await chunked(ids, (some) => db.selectFrom('scans').selectAll().where('id', 'in', some).execute());
  return new Map(rows.map((row) => [row.id, row]));
}

/** The scans of `ids` that `userId` can see (docs/contract/auth.md#visibility), by id. */
export async function findVisibleScansById(
  db: Executor,
  ids: Iterable<string>,
  userId: string,
): Promise<Map<string, ScanRow>> {
  const rows = await chunked(ids, (some) =>
    db.selectFrom('scans').selectAll().where('id', 'in', some).where(visibleTo(userId)).execute(),
  );
  return new Map(rows.map((row) => [row.id, row]));
}

/** The scans pulled from `remoteId` whose ids there are `originIds`, by that id. */
export async function findPulledScansByOrigin(
  db: Executor,
  remoteId: string,
  originIds: Iterable<string>,
): Promise<Map<string, ScanRow>> {
  const rows = await chunked(originIds, (some) =>
    db
      .selectFrom('scans')
      .selectAll()
      .where('origin_remote_id', '=', remoteId)
      .where('origin_id', 'in', some)
      .execute(),
  );
  return new Map(rows.map((row) => [row.origin_id!, row]));
}

/** Our pushes that `remoteId` acknowledged as its scans `remoteScanIds`, by that id. */
export async function findAcknowledgedPushes(
  db: Executor,
  remoteId: string,
  remoteScanIds: Iterable<string>,
): Promise<Map<string, SyncPushRow>> {
  const rows = await chunked(remoteScanIds, (some) =>
    db
      .selectFrom('sync_pushes')
      .selectAll()
      .where('remote_id', '=', remoteId)
      .where('remote_scan_id', 'in', some)
      .execute(),
  );
  return new Map(rows.map((row) => [row.remote_scan_id!, row]));
}

/** Which of the violation `ids` are taken in the store. */
export async function findTakenViolationIds(db: Executor, ids: Iterable<string>): Promise<Set<string>> {
  const rows = await chunked(ids, (some) => db.selectFrom('violations').select('id').where('id', 'in', some).execute());
  return new Set(rows.map((row) => row.id));
}
