import type { SubmitScanBody } from '../../../shared/api/scans';
import { SEVERITY_RANK } from '../../../shared/policy/severity';
import type { Severity } from '../../../shared/api/scans';
import { timelineChunks } from '../../evidence/timeline/timeline-reads.repository';
import { RemoteRefused } from '../client/remote-errors';
import { isPushedScanAnswer, type PushedScanAnswer } from '../remote-shapes';
import type { SyncContext } from '../sync-context';
import {
  countQueued,
  markSending,
  queuedScans,
  recordAck,
  unansweredPushes,
  type QueuePosition,
  type QueuedScan,
} from './push-queue.repository';

// The push stage (docs/sync.md): the remote user's local submits go to a Scandesk remote by
// `POST /v1/scans`, each with `Idempotency-Key: push:<local scan id>` and its own `created_at`, so
// that a resend after a crash or a cut connection answers the first copy instead of making a
// second. The answer (the remote's scan, judged by the remote's policy) is recorded in the push
// log. A plain upstream promises no idempotency: nothing is pushed to one.

const PAGE = 100;

/** Statuses that will refuse every scan alike: stop pushing, say why once. */
const STOPS_ALL = new Set([401, 403, 429]);

export function pushBody(
  scan: QueuedScan,
  timeline: SubmitScanBody['timeline'],
): SubmitScanBody & { created_at: string } {
  return {
    tool: scan.tool,
    action: scan.action,
    tokens: scan.tokens,
    ...(scan.remote_org_id === null ? {} : { organization_id: scan.remote_org_id }),
    ...(timeline ? { timeline } : {}),
    token_breakdown: JSON.parse(scan.token_breakdown) as Record<string, number>,
    created_at: new Date(scan.created_at).toISOString(),
  };
}

async function readTimeline(ctx: SyncContext, scanId: string): Promise<SubmitScanBody['timeline']> {
  const entries: NonNullable<SubmitScanBody['timeline']> = [];
  for await (const rows of timelineChunks(ctx.db, scanId)) {
    for (const row of rows) {
      entries.push({
        timestamp: new Date(Number(row.timestamp)).toISOString(),
        action: row.action,
        tokens: Number(row.tokens),
      });
    }
  }
  return entries.length === 0 ? undefined : entries;
}

export function worstRemoteSeverity(answer: PushedScanAnswer): number {
  let worst = 0;
  for (const violation of answer.violations) {
    const rank = SEVERITY_RANK[violation.severity as Severity] as number | undefined;
    if (rank !== undefined) worst = Math.max(worst, rank);
  }
  return worst;
}

async function pushOne(ctx: SyncContext, scan: QueuedScan): Promise<void> {
  const { db, remote, client } = ctx;
  await markSending(db, remote.id, scan.id);
  const body = pushBody(scan, await readTimeline(ctx, scan.id));
  const answer = await client.postJson('/v1/scans', body, { 'idempotency-key': `push:${scan.id}` }, isPushedScanAnswer);
  await recordAck(db, remote.id, scan.id, {
    remoteScanId: answer.body.id,
    at: Date.now(),
    violationCount: answer.body.violation_count ?? answer.body.violations.length,
    worstSeverity: worstRemoteSeverity(answer.body),
  });
}

/**
 * Sends what waits for the remote, oldest first; `unansweredOnly`: only scans sent before whose
 * answer never came (a run settles those before it pulls, so that the pull finds them acknowledged
 * and does not store the remote's copy as a new scan). A scan the remote refuses stays queued and
 * is named in the summary; a refusal that would repeat for every scan (token, permission, rate)
 * ends the stage, and so does losing the remote (thrown to the run).
 */
export async function pushScans(ctx: SyncContext, unansweredOnly = false): Promise<void> {
  const { db, remote, tally } = ctx;
  if (remote.kind !== 'scandesk') return;
  const only = unansweredOnly ? await unansweredPushes(db, remote.id) : undefined;
  if (only?.length === 0) return;
  const total = only ? only.length : await countQueued(db, remote);
  if (!unansweredOnly) ctx.progress.report('push', 0, total, true);
  let done = 0;
  let after: QueuePosition | null = null;
  try {
    for (;;) {
      const page = await queuedScans(db, remote, PAGE, after, only);
      if (page.length === 0) break;
      for (const scan of page) {
        ctx.signal.throwIfAborted();
        try {
          await pushOne(ctx, scan);
          tally.pushed.sent += 1;
        } catch (error) {
          if (!(error instanceof RemoteRefused)) throw error;
          if (STOPS_ALL.has(error.status)) {
            tally.problem('push', error.message);
            return;
          }
          tally.problem(scan.id, error.message);
        }
        done += 1;
        if (!unansweredOnly) ctx.progress.report('push', done, total);
      }
      const last = page[page.length - 1]!;
      after = { created_at: last.created_at, id: last.id };
    }
  } finally {
    tally.pushed.waiting = await countQueued(db, remote);
    if (!unansweredOnly) ctx.progress.report('push', done, total, true);
  }
}
