import { SYNC_PAGE_MAX } from '../../../shared/api/sync';
import type { PulledPlacement } from '../../evidence/import/pulled-import.service';
import { RemoteBroken, RemoteRefused } from '../client/remote-errors';
import { isChangesPage } from '../remote-shapes';
import { saveCursor } from '../sync-state.repository';
import type { SyncContext } from '../sync-context';
import { isRefusedPackage, packageFile, refusalText, storePackage } from './pull-batch';

// The pull from a Scandesk remote (docs/sync.md): the change feed a page at a time, each page's
// scans fetched as one evidence package (`POST /v1/evidence/exports`, a format-1 package: the
// checked, all-or-nothing unit of an import) and stored as pulled scans, the feed's cursor saved in
// the transaction that stored the page's last package. A crash anywhere re-reads at most one page,
// whose scans then come out unchanged.
//
// A page's package is split in halves when the remote answers 404 (a scan the feed listed was
// deleted, or hidden, before the export: it is skipped), when it is over the size cap, or when the
// import refuses it: so one bad scan costs itself, reported by id, never the whole page, and the
// cursor moves past it (it comes again if it changes on the remote).

/** Scans per feed page: one export's worth. */
export const FEED_PAGE = 500;

interface PageWork {
  ids: string[];
  /** The feed cursor after the page: saved with the page's last stored package. */
  cursor: string;
}

async function storePage(ctx: SyncContext, placement: PulledPlacement, page: PageWork): Promise<void> {
  const { client, remote, leaseOwner, db } = ctx;
  const parts: string[][] = [page.ids];
  let cursorSaved = false;
  while (parts.length > 0) {
    ctx.signal.throwIfAborted();
    const part = parts.shift()!;
    const last = parts.length === 0;
    const file = packageFile(ctx);
    const before = ctx.progress.bytes;
    try {
      await client.download('POST', '/v1/evidence/exports', { scan_ids: part }, file, {
        maxBytes: ctx.limits.bodyBytes,
        onBytes: (bytes) => {
          ctx.progress.bytes = before + bytes;
        },
        signal: ctx.signal,
      });
      ctx.tally.pulled.bytes += ctx.progress.bytes - before;
      await storePackage(ctx, file, placement, {
        ...(last ? { closing: (trx) => saveCursor(trx, remote.id, leaseOwner, page.cursor) } : {}),
      });
      if (last) cursorSaved = true;
    } catch (error) {
      const splittable =
        (error instanceof RemoteRefused && error.status === 404) ||
        (error instanceof RemoteBroken && /larger than/.test(error.message)) ||
        isRefusedPackage(error);
      if (!splittable) throw error;
      if (part.length > 1) {
        const half = Math.ceil(part.length / 2);
        parts.unshift(part.slice(0, half), part.slice(half));
        continue;
      }
      // One scan: gone from the remote since the feed listed it (not an error), or refused.
      if (!(error instanceof RemoteRefused && error.status === 404)) {
        ctx.tally.problem(part[0]!, isRefusedPackage(error) ? refusalText(error) : (error as Error).message);
      }
    }
  }
  if (!cursorSaved) await saveCursor(db, remote.id, leaseOwner, page.cursor);
}

/**
 * Pulls every change since the saved cursor. A cursor the remote refuses (400: malformed, or from
 * a store it no longer is) is dropped once and the feed read from its start: every scan already
 * here comes out unchanged. Answers how many scans the remote lets the user see now.
 */
export async function pullFromScandesk(ctx: SyncContext, placement: PulledPlacement): Promise<number> {
  const { client, remote } = ctx;
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
    if (ids.length > 0) await storePage(ctx, placement, { ids, cursor: page.cursor });
    else if (page.cursor !== cursor) await saveCursor(ctx.db, remote.id, ctx.leaseOwner, page.cursor);
    cursor = page.cursor;
    done += ids.length;
    ctx.progress.report('pull', done, fromStart || restarted ? Math.max(total, done) : page.more ? null : done);
    if (!page.more) break;
  }
  ctx.progress.report('pull', done, done, true);
  return total;
}
