import { SYNC_PAGE_MAX } from '../../../shared/api/sync';
import { importPulledScans, type PulledPlacement } from '../../evidence/import/pulled-import.service';
import { RemoteBroken, RemoteRefused } from '../client/remote-errors';
import { isChangesPage } from '../remote-shapes';
import { saveCursor } from '../sync-state.repository';
import type { SyncContext } from '../sync-context';
import { countStored, isRefusedPackage, packageFile, refusalText, storePackage } from './pull-batch';
import { readScanAnswer } from './scan-answer';

// The pull from a Scandesk remote (docs/sync.md): the change feed a page at a time, each page's
// scans fetched in one dense answer (`POST /v1/sync/scans`, a line per scan, checked as an import
// checks a package: scan-line.ts) and stored as pulled scans in one transaction, all or nothing,
// with the feed's cursor when nothing of the page is left. The scans the answer leaves to a
// package (a long timeline) are then fetched as evidence packages (`POST /v1/evidence/exports`),
// the last of them saving the cursor. A remote without the dense route (an older Scandesk) is
// pulled by packages alone. A crash anywhere re-reads at most one page, whose scans then come out
// unchanged.
//
// A part is split in halves when its answer is over the size cap or refused, and a package also
// when the remote answers 404 (a scan the feed listed was deleted, or hidden, before the export:
// it is skipped): so one bad scan costs itself, reported by id, never the whole page, and the
// cursor moves past it (it comes again if it changes on the remote).

/** Scans per feed page: one dense answer's worth. */
export const FEED_PAGE = 500;

interface PageWork {
  ids: string[];
  /** The feed cursor after the page: saved with the page's last stored part. */
  cursor: string;
}

/** The parts of `ids`, split in halves while `store` says a part is splittable; each bad one named alone. */
async function inParts(
  ctx: SyncContext,
  ids: string[],
  store: (part: string[], last: boolean) => Promise<void>,
  splittable: (error: unknown) => boolean,
  quiet: (error: unknown) => boolean = () => false,
): Promise<void> {
  const parts: string[][] = [ids];
  while (parts.length > 0) {
    ctx.signal.throwIfAborted();
    const part = parts.shift()!;
    try {
      await store(part, parts.length === 0);
    } catch (error) {
      if (!splittable(error)) throw error;
      if (part.length > 1) {
        const half = Math.ceil(part.length / 2);
        parts.unshift(part.slice(0, half), part.slice(half));
        continue;
      }
      if (!quiet(error)) {
        ctx.tally.problem(part[0]!, isRefusedPackage(error) ? refusalText(error) : (error as Error).message);
      }
    }
  }
}

const tooLarge = (error: unknown): boolean => error instanceof RemoteBroken && /larger than/.test(error.message);
const gone = (error: unknown): boolean => error instanceof RemoteRefused && error.status === 404;

/** Stores `ids` as evidence packages; the last part saves `cursor` when given. Whether it did. */
async function storeAsPackages(
  ctx: SyncContext,
  placement: PulledPlacement,
  ids: string[],
  cursor: string | null,
): Promise<boolean> {
  const { client, remote, leaseOwner } = ctx;
  let cursorSaved = false;
  await inParts(
    ctx,
    ids,
    async (part, last) => {
      const file = packageFile(ctx);
      const before = ctx.progress.bytes;
      await client.download('POST', '/v1/evidence/exports', { scan_ids: part }, file, {
        maxBytes: ctx.limits.bodyBytes,
        onBytes: (bytes) => {
          ctx.progress.bytes = before + bytes;
        },
        signal: ctx.signal,
      });
      ctx.tally.pulled.bytes += ctx.progress.bytes - before;
      const closing = last && cursor !== null;
      await storePackage(ctx, file, placement, {
        ...(closing ? { closing: (trx) => saveCursor(trx, remote.id, leaseOwner, cursor) } : {}),
      });
      if (closing) cursorSaved = true;
    },
    (error) => gone(error) || tooLarge(error) || isRefusedPackage(error),
    gone,
  );
  return cursorSaved;
}

/** Whether the remote answers the dense route; false once it said 404 (an older Scandesk). */
interface PullState {
  dense: boolean;
}

/** Stores `ids` from dense answers; those left to a package stored after. Whether the cursor was saved. */
async function storeDense(
  ctx: SyncContext,
  placement: PulledPlacement,
  page: PageWork,
): Promise<boolean> {
  const { client, remote, leaseOwner } = ctx;
  const packaged: string[] = [];
  let cursorSaved = false;
  await inParts(
    ctx,
    page.ids,
    async (part, last) => {
      const before = ctx.progress.bytes;
      const lines = await readScanAnswer(
        client.postStream('/v1/sync/scans', { scan_ids: part }, ctx.signal),
        part,
        {
          maxBytes: ctx.limits.bodyBytes,
          onBytes: (bytes) => {
            ctx.progress.bytes = before + bytes;
          },
        },
      );
      ctx.tally.pulled.bytes += ctx.progress.bytes - before;
      const scans = lines.flatMap((line) => (line.kind === 'scan' ? [line.scan] : []));
      for (const line of lines) if (line.kind === 'skipped' && line.why === 'package') packaged.push(line.id);
      const closing = last && packaged.length === 0;
      if (scans.length === 0) return;
      countStored(
        ctx,
        await importPulledScans(
          ctx.db,
          scans,
          placement,
          closing ? (trx) => saveCursor(trx, remote.id, leaseOwner, page.cursor) : undefined,
        ),
      );
      if (closing) cursorSaved = true;
    },
    (error) => tooLarge(error) || isRefusedPackage(error),
  );
  if (packaged.length === 0) return cursorSaved;
  return storeAsPackages(ctx, placement, packaged, page.cursor);
}

async function storePage(
  ctx: SyncContext,
  placement: PulledPlacement,
  state: PullState,
  page: PageWork,
): Promise<void> {
  let cursorSaved = false;
  if (state.dense) {
    try {
      cursorSaved = await storeDense(ctx, placement, page);
    } catch (error) {
      if (!gone(error)) throw error;
      state.dense = false;
    }
  }
  if (!state.dense) cursorSaved = await storeAsPackages(ctx, placement, page.ids, page.cursor);
  if (!cursorSaved) await saveCursor(ctx.db, ctx.remote.id, ctx.leaseOwner, page.cursor);
}

/**
 * Pulls every change since the saved cursor. A cursor the remote refuses (400: malformed, or from
 * a store it no longer is) is dropped once and the feed read from its start: every scan already
 * here comes out unchanged. Answers how many scans the remote lets the user see now.
 */
export async function pullFromScandesk(ctx: SyncContext, placement: PulledPlacement): Promise<number> {
  const { client, remote } = ctx;
  const state: PullState = { dense: true };
  let cursor = remote.cursor;
  let restarted = false;
  const fromStart = cursor === null;
  let done = 0;
  let total: number;
  ctx.progress.report('pull', 0, null, true);
  for (;;) {
    ctx.signal.throwIfAborted();
    let page;
    try {
      page = await client.getJson(
        '/v1/sync/changes',
        { limit: Math.min(FEED_PAGE, SYNC_PAGE_MAX), ...(cursor === null ? {} : { cursor }) },
        isChangesPage,
      );
    } catch (error) {
      if (error instanceof RemoteRefused && error.status === 400 && cursor !== null && !restarted) {
        cursor = null;
        restarted = true;
        continue;
      }
      throw error;
    }
    total = page.total;
    const ids = [...new Set(page.changes.map((change) => change.id))];
    if (ids.length > 0) await storePage(ctx, placement, state, { ids, cursor: page.cursor });
    else if (page.cursor !== cursor) await saveCursor(ctx.db, remote.id, ctx.leaseOwner, page.cursor);
    cursor = page.cursor;
    done += ids.length;
    ctx.progress.report('pull', done, fromStart || restarted ? Math.max(total, done) : page.more ? null : done);
    if (!page.more) break;
  }
  ctx.progress.report('pull', done, done, true);
  return total;
}
