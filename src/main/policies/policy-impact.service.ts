import { randomUUID } from 'node:crypto';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Policy, PolicyComparison, PolicyPreviewBody } from '../../shared/api/policies';
import { IMPACT_MAX_DAYS } from '../../shared/api/policies';
import { evaluatePolicy, type Finding } from '../../shared/policy/evaluate-policy';
import { DAY_MS, parseDateOrDateTime, parseUntil } from '../../shared/time';
import { type Db, type Executor, inTransaction, nextChangeSeq, type NewPolicyStagedViolation } from '../db/index';
import { conflict, DomainError } from '../domain-error';
import { newId } from '../ids';
import { requireRole } from '../organizations/access';
import { refuseMirrored } from '../organizations/mirror-guard';
import { findPolicy } from './policies.repository';
import {
  addFinding,
  closeSide,
  emptyImpact,
  emptySide,
  planSteps,
  readsTimeline,
  sameSides,
  takeWithin,
  timelineRules,
  type ScanSide,
} from './policy-impact';
import {
  countRange,
  dropStagedStep,
  entriesOf,
  applyStagedCounts,
  deleteViolationsStep,
  insertStagedStep,
  stagedScansPage,
  stageScans,
  stageViolations,
  submittedPage,
  timelineIds,
  violationsOf,
  type ImpactRange,
  type ImpactScan,
} from './policy-impact.repository';
import { beat, claimRun, releaseRun } from './policy-runs.repository';

/** Scans per page read; a page is then worked through in rounds of ROUND_ROWS. */
const PAGE_SCANS = 200;
/**
 * Rows (timeline entries or stored violations) per step: one bounded read, its evaluation, then a
 * turn of the event loop. 2,000 rows are a few milliseconds of SQLite and of the engine.
 */
export const STEP_ROWS = 2_000;
/** Rows per round: the scans whose sides are kept in memory at once, and how often progress moves. */
const ROUND_ROWS = 100_000;
/** A run's claim beats this often, and a claim that has not beaten for STALE_MS is taken over. */
const HEARTBEAT_MS = 5_000;
const STALE_MS = 60_000;

export type Progress = (done: number, total: number) => void;

/** A claimed run: the organization's one preview or re-evaluation going on. */
export interface ImpactRun {
  range: ImpactRange;
  runId: string;
  /** A stale run this one took over: its staged rows are removed when this one ends. */
  tookOver: string | null;
}

function rangeOf(organizationId: string, body: { since: string; until: string }): ImpactRange {
  const since = parseDateOrDateTime(body.since)!;
  const until = parseUntil(body.until)!;
  if (until <= since) {
    throw new DomainError('validation_failed', 'until must be after since', [
      { field: 'until', message: 'must be after since' },
    ]);
  }
  if (until - since > IMPACT_MAX_DAYS * DAY_MS) {
    throw new DomainError('validation_failed', `a range may span at most ${IMPACT_MAX_DAYS} days`, [
      { field: 'until', message: `at most ${IMPACT_MAX_DAYS} days after since` },
    ]);
  }
  return { organizationId, since, until };
}

/**
 * Checks what a preview or re-evaluation needs before anything streams (the caller's role, that a
 * re-evaluation's organization is not mirrored from a remote, and the range) and claims the
 * organization for it: one run per organization at a time, across every server process on the
 * store; another is refused as a conflict (409) until it ends. The claim must be ended by
 * previewPolicy or reevaluate.
 */
export async function beginImpactRun(
  db: Db,
  organizationId: string,
  userId: string,
  body: { since: string; until: string },
  kind: 'preview' | 'reevaluate',
): Promise<ImpactRun> {
  await requireRole(db, organizationId, userId, 'admin');
  if (kind === 'reevaluate') await refuseMirrored(db, { organizationId });
  const range = rangeOf(organizationId, body);
  const runId = randomUUID();
  const now = Date.now();
  const claimed = await inTransaction(db, (trx) => claimRun(trx, organizationId, runId, now, now - STALE_MS));
  if (claimed === 'busy') {
    throw conflict(
      'a policy preview or re-evaluation of this organization is already running; try again when it has finished',
    );
  }
  return { range, runId, tookOver: claimed };
}

/** What every step of a run shares. */
class Walk {
  private lastBeat = Date.now();

  constructor(
    readonly db: Db,
    readonly run: ImpactRun,
    readonly policy: Policy,
    private readonly signal: AbortSignal,
  ) {}

  /** Between steps: stops if the client went away, lets other requests run, keeps the claim alive. */
  async pause(): Promise<void> {
    this.signal.throwIfAborted();
    await nextTurn();
    this.signal.throwIfAborted();
    if (Date.now() - this.lastBeat < HEARTBEAT_MS) return;
    this.lastBeat = Date.now();
    if (!(await beat(this.db, this.run.range.organizationId, this.run.runId, this.lastBeat))) {
      throw conflict('this run stalled and another took its place; nothing was written');
    }
  }
}

/**
 * Evaluates the policy over `scans` a bounded step at a time, handing each finding to `emit` in
 * the order the engine gives them for a whole scan (its scan-level findings, then its timeline's);
 * `afterStep` runs after each step's findings.
 */
async function evaluateScans(
  walk: Walk,
  scans: readonly ImpactScan[],
  emit: (scan: ImpactScan, finding: Finding) => void,
  afterStep?: () => Promise<void>,
): Promise<void> {
  for (const scan of scans) {
    for (const finding of evaluatePolicy(walk.policy, { tool: scan.tool, tokens: scan.tokens, timeline: [] })) {
      emit(scan, finding);
    }
  }
  await afterStep?.();
  if (!readsTimeline(walk.policy)) return;
  const sliceRules = timelineRules(walk.policy);
  const ids = await timelineIds(
    walk.db,
    scans.map((scan) => scan.id),
  );
  const byTimeline = new Map<number, ImpactScan>();
  for (const scan of scans) {
    const id = ids.get(scan.id);
    if (id !== undefined) byTimeline.set(id, scan);
  }
  const items = [...byTimeline].map(([key, scan]) => ({ key, rows: scan.request_count }));
  for (const step of planSteps(items, STEP_ROWS)) {
    await walk.pause();
    const rows = await entriesOf(walk.db, step);
    for (let start = 0; start < rows.length;) {
      const timelineId = rows[start]!.timeline_id;
      let end = start + 1;
      while (end < rows.length && rows[end]!.timeline_id === timelineId) end += 1;
      const scan = byTimeline.get(timelineId)!;
      const offset = rows[start]!.seq;
      const slice = rows.slice(start, end);
      for (const finding of evaluatePolicy(sliceRules, { tool: scan.tool, tokens: scan.tokens, timeline: slice })) {
        emit(scan, { ...finding, timeline_index: finding.timeline_index! + offset });
      }
      start = end;
    }
    await afterStep?.();
  }
}

type OnChanged = (scans: ImpactScan[], policySides: ReadonlyMap<string, ScanSide>) => Promise<void>;

/**
 * Walks the range's submitted scans in bounded steps, evaluating the policy with the same engine
 * as a submit, and compares with what is stored, holding only a round's per-scan digests.
 * `onChanged` hears of each round's scans whose violations would change.
 */
async function compare(walk: Walk, onProgress: Progress, onChanged?: OnChanged): Promise<PolicyComparison> {
  const { db } = walk;
  const range = walk.run.range;
  const { submitted, imported } = await countRange(db, range);
  const result: PolicyComparison = {
    scanned: 0,
    imported_skipped: imported,
    current: emptyImpact(),
    policy: emptyImpact(),
    changed_scans: 0,
  };
  const entries = readsTimeline(walk.policy);
  const sizeOf = (scan: ImpactScan): number => scan.violation_count + (entries ? scan.request_count : 0);
  let after: ImpactScan | undefined;
  onProgress(0, submitted);
  for (;;) {
    await walk.pause();
    const page = await submittedPage(db, range, after, PAGE_SCANS);
    if (page.length === 0) break;
    const scans = page.slice(0, takeWithin(page.map(sizeOf), ROUND_ROWS));
    const stored = new Map(scans.map((scan) => [scan.id, emptySide()]));
    const computed = new Map(scans.map((scan) => [scan.id, emptySide()]));
    for (const step of planSteps(
      scans.map((scan) => ({ key: scan.id, rows: scan.violation_count })),
      STEP_ROWS,
    )) {
      await walk.pause();
      for (const row of await violationsOf(db, step)) addFinding(result.current, stored.get(row.scan_id)!, row);
    }
    await evaluateScans(walk, scans, (scan, finding) => addFinding(result.policy, computed.get(scan.id)!, finding));
    const changed: ImpactScan[] = [];
    for (const scan of scans) {
      closeSide(result.current, stored.get(scan.id)!);
      closeSide(result.policy, computed.get(scan.id)!);
      if (!sameSides(stored.get(scan.id)!, computed.get(scan.id)!)) changed.push(scan);
    }
    result.changed_scans += changed.length;
    if (changed.length > 0) await onChanged?.(changed, computed);
    result.scanned += scans.length;
    onProgress(result.scanned, Math.max(submitted, result.scanned));
    after = scans[scans.length - 1];
    if (page.length < PAGE_SCANS && scans.length === page.length) break;
  }
  return result;
}

/** Ends a run: its staged rows (and those of a stale run it took over) go in bounded steps, then its claim. */
async function endRun(db: Db, run: ImpactRun, staged: boolean): Promise<void> {
  for (const runId of staged ? [run.runId, run.tookOver] : [run.tookOver]) {
    if (runId === null) continue;
    while (await dropStagedStep(db, runId, STEP_ROWS)) await nextTurn();
  }
  await releaseRun(db, run.range.organizationId, run.runId);
}

/**
 * Swaps a run's staged violations in, in one transaction made of bounded statements with a turn
 * of the event loop between them: readers see every changed scan re-evaluated or none, the event
 * loop is never held for long, and only other writers (on SQLite) wait, for this swap alone.
 */
async function swapIn(trx: Executor, runId: string): Promise<void> {
  let after: string | undefined;
  let changeSeq: number | undefined;
  for (;;) {
    const page = await stagedScansPage(trx, runId, after, PAGE_SCANS);
    if (page.length === 0) return;
    // Before the first write, whose rollup rows a submit holding the counter may wait for.
    changeSeq ??= await nextChangeSeq(trx);
    for (const step of planSteps(
      page.map((scan) => ({ key: scan.scanId, rows: scan.storedCount })),
      STEP_ROWS,
    )) {
      await deleteViolationsStep(trx, step);
      await nextTurn();
    }
    for (const step of planSteps(
      page.map((scan) => ({ key: scan.scanId, rows: scan.stagedCount })),
      STEP_ROWS,
    )) {
      await insertStagedStep(trx, runId, step);
      await nextTurn();
    }
    // The rollup trigger of a scan's count reads all its violations: as many scans at a time as
    // have STEP_ROWS of them, and a larger one alone.
    for (const step of planSteps(
      page.map((scan) => ({ key: scan.scanId, rows: Math.max(1, scan.stagedCount) })),
      STEP_ROWS,
    )) {
      if (step.kind === 'slice' && step.from > 0) continue;
      await applyStagedCounts(trx, runId, step.kind === 'items' ? step.keys : [step.key], changeSeq);
      await nextTurn();
    }
    after = page[page.length - 1]!.scanId;
  }
}

/**
 * What a draft policy would flag over the range's submitted scans, beside what is stored: nothing
 * is written. Stops at the next step once `signal` aborts (the client went away).
 */
export async function previewPolicy(
  db: Db,
  run: ImpactRun,
  body: PolicyPreviewBody,
  onProgress: Progress,
  signal: AbortSignal,
): Promise<PolicyComparison> {
  try {
    return await compare(new Walk(db, run, body.policy, signal), onProgress);
  } finally {
    await endRun(db, run, false);
  }
}

/**
 * Applies the saved policy to the range's submitted scans, all or nothing: each scan whose
 * violations differ gets the policy's (new ids, as a submit gives them) and its counts; the
 * rollups follow by trigger. Imported scans keep their package's violations. The new violations
 * are staged a step at a time (each its own short transaction) and swapped in by one transaction
 * at the end, so readers see all of it or none, and other writers wait at most for one step or
 * the swap, whose length is the violations it moves. A policy replaced meanwhile, or a client
 * gone, leaves everything as it was.
 */
export async function reevaluate(
  db: Db,
  run: ImpactRun,
  onProgress: Progress,
  signal: AbortSignal,
): Promise<PolicyComparison> {
  const { organizationId } = run.range;
  try {
    const policy = await findPolicy(db, organizationId);
    const walk = new Walk(db, run, policy, signal);
    const stage: OnChanged = async (scans, policySides) => {
      const seqs = new Map<string, number>();
      let rows: NewPolicyStagedViolation[] = [];
      await evaluateScans(
        walk,
        scans,
        (scan, finding) => {
          const seq = seqs.get(scan.id) ?? 0;
          seqs.set(scan.id, seq + 1);
          rows.push({ run_id: run.runId, scan_id: scan.id, seq, id: newId('violation'), ...finding });
        },
        async () => {
          const written = rows;
          rows = [];
          if (written.length > 0) {
            await inTransaction(db, (trx) => stageViolations(db, trx, written), { isolation: 'read committed' });
          }
        },
      );
      await stageScans(
        db,
        run.runId,
        scans.map((scan) => ({
          scanId: scan.id,
          violationCount: policySides.get(scan.id)!.count,
          worstSeverity: policySides.get(scan.id)!.worst,
        })),
      );
    };
    const result = await compare(walk, onProgress, stage);
    signal.throwIfAborted();
    await inTransaction(db, async (trx) => {
      if (JSON.stringify(await findPolicy(trx, organizationId)) !== JSON.stringify(policy)) {
        throw conflict('the policy was replaced during the re-evaluation; nothing was written, run it again');
      }
      if (!(await beat(trx, organizationId, run.runId, Date.now()))) {
        throw conflict('this run stalled and another took its place; nothing was written');
      }
      await swapIn(trx, run.runId);
    });
    return result;
  } finally {
    await endRun(db, run, true);
  }
}
