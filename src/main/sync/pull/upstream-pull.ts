import type { Executor } from '../../db/index';
import type { PulledPlacement } from '../../evidence/import/pulled-import.service';
import { RemoteBroken, RemoteRefused } from '../client/remote-errors';
import { isScanDocument, isScanListPage, type RemoteListedScan } from '../remote-shapes';
import { saveCursor } from '../sync-state.repository';
import type { SyncContext } from '../sync-context';
import { isRefusedPackage, packageFile, refusalText, storePackage } from './pull-batch';
import {
  chooseUpstreamPass,
  newestTime,
  nextOffset,
  parseUpstreamCursor,
  passComplete,
  serializeUpstreamCursor,
  type UpstreamCursor,
  type UpstreamPass,
} from './upstream-cursor';

// The pull from a plain upstream (../shared/UPSTREAM.md, docs/sync.md): list the scans (limit,
// offset, since) in the upstream's own order, and for each id not stored yet download its evidence
// ZIP and get the scan (its violations: the ZIP's inner layout is "not shown" and may lack them),
// then store the pair as a pulled package. upstream-cursor.ts says how a run chooses between the
// whole list and the part since its watermark. A scan stored is never fetched again: the upstream
// interface shows no re-evaluation, so a plain upstream's scans never come out `changed`.

/** The documented default page: the upstream's largest limit is "not shown". */
export const LIST_PAGE = 50;

/** A list that keeps changing under the offsets is read at most this many times in one run. */
const MAX_PASSES = 2;

async function listPage(ctx: SyncContext, offset: number, since: string | null, limit = LIST_PAGE) {
  return ctx.client.getJson('/v1/scans', { limit, offset, ...(since === null ? {} : { since }) }, isScanListPage);
}

/** The remote ids among `ids` already pulled from this remote. */
async function storedOrigins(db: Executor, remoteId: string, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .selectFrom('scans')
    .select('origin_id')
    .where('origin_remote_id', '=', remoteId)
    .where('origin_id', 'in', ids)
    .execute();
  return new Set(rows.map((row) => row.origin_id!));
}

/** Pulled scans of this remote that a full pass did not list: gone there, kept here. */
async function countGone(db: Executor, remoteId: string, listed: ReadonlySet<string>): Promise<number> {
  const rows = await db.selectFrom('scans').select('origin_id').where('origin_remote_id', '=', remoteId).execute();
  return rows.filter((row) => !listed.has(row.origin_id!)).length;
}

/**
 * Fetches and stores one scan. The download's own scan document (if its layout has one) wins over
 * the get-scan answer given beside it, which the import reads only when the ZIP lacks it.
 * false when the scan was removed from the remote meanwhile.
 */
async function pullScan(ctx: SyncContext, placement: PulledPlacement, id: string): Promise<boolean> {
  const path = `/v1/scans/${encodeURIComponent(id)}`;
  const file = packageFile(ctx);
  const before = ctx.progress.bytes;
  try {
    const scan = await ctx.client.getJson(path, undefined, isScanDocument);
    if (scan.id !== id) throw new RemoteBroken(`the remote answered scan ${scan.id} when asked for ${id}`);
    await ctx.client.download('GET', `${path}/evidence/download`, undefined, file, {
      maxBytes: ctx.limits.bodyBytes,
      onBytes: (bytes) => {
        ctx.progress.bytes = before + bytes;
      },
      signal: ctx.signal,
    });
    ctx.tally.pulled.bytes += ctx.progress.bytes - before;
    await storePackage(ctx, file, placement, {
      extraDocuments: [{ name: `${id}.get-scan.json`, json: scan }],
    });
    return true;
  } catch (error) {
    if (error instanceof RemoteRefused && error.status === 404) return false;
    throw error;
  }
}

interface PassResult {
  listed: Map<string, string>;
  complete: boolean;
  /** A scan failed (refused, or the remote broke on it): the watermark stays where it was. */
  failed: boolean;
}

async function readPass(ctx: SyncContext, placement: PulledPlacement, pass: UpstreamPass): Promise<PassResult> {
  const since = pass.mode === 'since' ? pass.since : null;
  const listed = new Map<string, string>();
  let failed = false;
  let offset: number | null = 0;
  let lastTotal = 0;
  let done = 0;
  while (offset !== null) {
    ctx.signal.throwIfAborted();
    const page = await listPage(ctx, offset, since);
    lastTotal = page.total;
    const fresh = page.scans.filter((scan: RemoteListedScan) => !listed.has(scan.id));
    for (const scan of fresh) listed.set(scan.id, scan.created_at);
    const stored = await storedOrigins(
      ctx.db,
      ctx.remote.id,
      fresh.map((scan) => scan.id),
    );
    for (const scan of fresh) {
      if (!stored.has(scan.id)) {
        try {
          await pullScan(ctx, placement, scan.id);
        } catch (error) {
          if (!isRefusedPackage(error) && !(error instanceof RemoteBroken)) throw error;
          failed = true;
          ctx.tally.problem(scan.id, isRefusedPackage(error) ? refusalText(error) : error.message);
        }
      } else {
        ctx.tally.pulled.unchanged += 1;
      }
      done += 1;
      ctx.progress.report('pull', done, Math.max(done, page.total));
    }
    offset = nextOffset(offset, page.scans.length, page.total);
  }
  return { listed, complete: passComplete(listed.size, lastTotal), failed };
}

/** How many the remote lists, and how many since `since`: the two counts a pass is chosen by. */
async function totals(ctx: SyncContext, since: string) {
  const all = (await listPage(ctx, 0, null, 1)).total;
  const sinceWatermark = (await listPage(ctx, 0, since, 1)).total;
  return { all, sinceWatermark };
}

/** Pulls what the upstream lists and is not stored yet; saves the new watermark when a pass completed. */
export async function pullFromUpstream(ctx: SyncContext, placement: PulledPlacement): Promise<void> {
  const cursor = parseUpstreamCursor(ctx.remote.cursor);
  ctx.progress.report('pull', 0, null, true);
  let pass = chooseUpstreamPass(cursor, cursor?.since ? await totals(ctx, cursor.since) : null);
  let result: PassResult | undefined;
  for (let attempt = 1; attempt <= MAX_PASSES; attempt++) {
    result = await readPass(ctx, placement, pass);
    if (result.complete) break;
    // Offsets shifted under the pass (scans removed meanwhile): read the whole list again.
    pass = { mode: 'full' };
  }
  if (!result) return;
  ctx.progress.report('pull', result.listed.size, result.listed.size, true);
  const full = pass.mode === 'full';
  const gone =
    full && result.complete
      ? await countGone(ctx.db, ctx.remote.id, new Set(result.listed.keys()))
      : (cursor?.gone ?? 0);
  ctx.tally.gone = gone;
  if (!result.complete) {
    ctx.tally.problem('pull', 'the remote list kept changing while it was read; the next sync reads it again');
    return;
  }
  if (result.failed) return;
  const since = newestTime(cursor?.since ?? null, result.listed.values());
  const next: UpstreamCursor = { v: 1, kind: 'upstream', since, before: 0, gone };
  if (since !== null) {
    const counts = await totals(ctx, since);
    next.before = counts.all - counts.sinceWatermark;
  }
  await saveCursor(ctx.db, ctx.remote.id, ctx.leaseOwner, serializeUpstreamCursor(next));
}
