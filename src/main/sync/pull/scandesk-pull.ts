import { SYNC_PAGE_MAX, type SyncChanges } from '../../../shared/api/sync';
import { importPulledScans, type PulledPlacement } from '../../evidence/import/pulled-import.service';
import { RemoteBroken, RemoteRefused } from '../client/remote-errors';
import { isChangesPage } from '../remote-shapes';
import { saveCursor } from '../sync-state.repository';
import type { SyncContext } from '../sync-context';
import { countStored, isRefusedPackage, packageFile, refusalText, storePackage } from './pull-batch';
import { readScanAnswer } from './scan-answer';
import type { ScanLine } from './scan-line';

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

/**
 * Scans per feed page, one dense answer's worth: the most the remote gives, since each page costs
 * a feed request, an answer and a transaction besides its scans (in a pull of 100,000 scans the
 * feed's share fell from 3.2 s in pages of 500 to 1.7–2.1 s).
 */
export const FEED_PAGE = SYNC_PAGE_MAX;

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

/** A dense answer for `ids`, read and checked whole; its bytes counted as they come. */
function readDense(ctx: SyncContext, ids: string[], signal: AbortSignal): Promise<ScanLine[]> {
  let seen = 0;
  return readScanAnswer(ctx.client.postStream('/v1/sync/scans', { scan_ids: ids }, signal), ids, {
    maxBytes: ctx.limits.bodyBytes,
    onBytes: (bytes) => {
      ctx.progress.bytes += bytes - seen;
      ctx.tally.pulled.bytes += bytes - seen;
      seen = bytes;
    },
  });
}

/**
 * Stores `page` from dense answers, the first part's answer `first` when it was fetched ahead;
 * those left to a package stored after. Whether the cursor was saved.
 */
async function storeDense(
  ctx: SyncContext,
  placement: PulledPlacement,
  page: PageWork,
  first: Promise<ScanLine[]> | null,
): Promise<boolean> {
  const { remote, leaseOwner } = ctx;
  const packaged: string[] = [];
  let cursorSaved = false;
  let ahead = first;
  await inParts(
    ctx,
    page.ids,
    async (part, last) => {
      const answer = ahead ?? readDense(ctx, part, ctx.signal);
      ahead = null;
      const lines = await answer;
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
  ahead: Promise<ScanLine[]> | null,
): Promise<void> {
  let cursorSaved = false;
  if (state.dense) {
    try {
      cursorSaved = await storeDense(ctx, placement, page, ahead);
    } catch (error) {
      if (!gone(error)) throw error;
      state.dense = false;
    }
  }
  if (!state.dense) cursorSaved = await storeAsPackages(ctx, placement, page.ids, page.cursor);
  if (!cursorSaved) await saveCursor(ctx.db, ctx.remote.id, ctx.leaseOwner, page.cursor);
}

/**
 * Feed pages (and their answers) fetched ahead of the page being stored: with two, the remote
 * works on two answers at once, so its reads and its encoding overlap, while the laptop stores.
 */
const PAGES_AHEAD = 2;

/** A feed page and, while the remote answers the dense route, its scans' answer under way. */
interface Fetched {
  page: SyncChanges;
  ids: string[];
  answer: Promise<ScanLine[]> | null;
}

function fetchPage(ctx: SyncContext, state: PullState, cursor: string | null, signal: AbortSignal): Promise<Fetched> {
  const fetched = (async () => {
    const page = await ctx.client.getJson(
      '/v1/sync/changes',
      { limit: FEED_PAGE, ...(cursor === null ? {} : { cursor }) },
      isChangesPage,
    );
    const ids = [...new Set(page.changes.map((change) => change.id))];
    const answer = state.dense && ids.length > 0 ? readDense(ctx, ids, signal) : null;
    // Awaited when its page is stored; a run that ends before leaves it unheard.
    answer?.catch(() => undefined);
    return { page, ids, answer };
  })();
  fetched.catch(() => undefined);
  return fetched;
}

/** The page after `previous`, asked for once `previous` is in; null after the last page. */
function fetchAfter(
  ctx: SyncContext,
  state: PullState,
  previous: Promise<Fetched | null>,
  signal: AbortSignal,
): Promise<Fetched | null> {
  const after = previous.then((fetched) =>
    fetched?.page.more ? fetchPage(ctx, state, fetched.page.cursor, signal) : null,
  );
  after.catch(() => undefined);
  return after;
}

/**
 * Pulls every change since the saved cursor. The next feed pages and their scans are fetched while
 * a page is stored (PAGES_AHEAD), so that the remote's work and the store's overlap; each page is still stored
 * in feed order, its cursor with it. A cursor the remote refuses (400: malformed, or from a store
 * it no longer is) is dropped once and the feed read from its start: every scan already here
 * comes out unchanged. Answers how many scans the remote lets the user see now.
 */
export async function pullFromScandesk(ctx: SyncContext, placement: PulledPlacement): Promise<number> {
  const { remote } = ctx;
  const state: PullState = { dense: true };
  // Ends a fetch ahead when the pull stops before it is used.
  const stop = new AbortController();
  const signal = AbortSignal.any([ctx.signal, stop.signal]);
  let cursor = remote.cursor;
  let restarted = false;
  const fromStart = cursor === null;
  let done = 0;
  let total: number;
  ctx.progress.report('pull', 0, null, true);
  try {
    let ahead: Promise<Fetched | null>[] = [fetchPage(ctx, state, cursor, signal)];
    for (;;) {
      ctx.signal.throwIfAborted();
      while (ahead.length <= PAGES_AHEAD) ahead.push(fetchAfter(ctx, state, ahead[ahead.length - 1]!, signal));
      let fetched: Fetched | null;
      try {
        fetched = await ahead.shift()!;
      } catch (error) {
        if (error instanceof RemoteRefused && error.status === 400 && cursor !== null && !restarted) {
          cursor = null;
          restarted = true;
          ahead = [fetchPage(ctx, state, cursor, signal)];
          continue;
        }
        throw error;
      }
      // Only a page after the last is null, and the loop ends at the last.
      if (fetched === null) throw new Error('the pull went past the last feed page');
      const { page, ids } = fetched;
      total = page.total;
      if (ids.length > 0) await storePage(ctx, placement, state, { ids, cursor: page.cursor }, fetched.answer);
      else if (page.cursor !== cursor) await saveCursor(ctx.db, remote.id, ctx.leaseOwner, page.cursor);
      cursor = page.cursor;
      done += ids.length;
      ctx.progress.report('pull', done, fromStart || restarted ? Math.max(total, done) : page.more ? null : done);
      if (!page.more) break;
    }
  } finally {
    stop.abort();
  }
  ctx.progress.report('pull', done, done, true);
  return total;
}
