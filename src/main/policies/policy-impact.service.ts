import type { Policy, PolicyComparison, PolicyPreviewBody, ReevaluateBody } from '../../shared/api/policies';
import { IMPACT_MAX_DAYS } from '../../shared/api/policies';
import { evaluatePolicy } from '../../shared/policy/evaluate-policy';
import { worstSeverityRank } from '../../shared/policy/severity';
import { DAY_MS, parseDateOrDateTime } from '../../shared/time';
import type { Db, Executor } from '../db/database';
import type { ScanRow } from '../db/tables/scan.table';
import { inTransaction } from '../db/transaction';
import { DomainError } from '../http/domain-error';
import { newId } from '../ids';
import { requireRole } from '../organizations/access';
import { findPolicy } from './policies.repository';
import { emptyImpact, readsTimeline, sameFindings, tally } from './policy-impact';
import {
  countRange,
  replaceViolations,
  storedFindings,
  submittedPage,
  timelinesOf,
  type ImpactRange,
} from './policy-impact.repository';

/** Scans per read: their timelines and violations are read together. */
const PAGE_SCANS = 500;

export type Progress = (done: number, total: number) => void;

function rangeOf(organizationId: string, body: { since: string; until: string }): ImpactRange {
  const since = parseDateOrDateTime(body.since)!;
  const until = parseDateOrDateTime(body.until)!;
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
 * Walks the range's submitted scans a page at a time, evaluating `policy` with the same engine as
 * a submit, and compares with what is stored. `onChanged` hears of every scan whose violations
 * would change (re-evaluation writes them there).
 */
async function compare(
  db: Executor,
  range: ImpactRange,
  policy: Policy,
  onProgress: Progress,
  onChanged?: (scan: ScanRow, findings: ReturnType<typeof evaluatePolicy>) => Promise<void>,
): Promise<PolicyComparison> {
  const { submitted, imported } = await countRange(db, range);
  const result: PolicyComparison = {
    scanned: 0,
    imported_skipped: imported,
    current: emptyImpact(),
    policy: emptyImpact(),
    changed_scans: 0,
  };
  const timelines = readsTimeline(policy);
  let after: ScanRow | undefined;
  onProgress(0, submitted);
  for (;;) {
    const scans = await submittedPage(db, range, after, PAGE_SCANS);
    if (scans.length === 0) break;
    const ids = scans.map((scan) => scan.id);
    const [stored, entries] = await Promise.all([
      storedFindings(db, ids),
      timelines ? timelinesOf(db, ids) : undefined,
    ]);
    for (const scan of scans) {
      const current = stored.get(scan.id)!;
      const findings = evaluatePolicy(policy, {
        tool: scan.tool,
        tokens: scan.tokens,
        timeline: entries?.get(scan.id) ?? [],
      });
      tally(result.current, current);
      tally(result.policy, findings);
      if (!sameFindings(current, findings)) {
        result.changed_scans += 1;
        await onChanged?.(scan, findings);
      }
    }
    result.scanned += scans.length;
    onProgress(result.scanned, Math.max(submitted, result.scanned));
    after = scans[scans.length - 1];
    if (scans.length < PAGE_SCANS) break;
  }
  return result;
}

/**
 * What a draft policy would flag over the range's submitted scans, beside what is stored: nothing
 * is written. Owners and admins, as for replacing the policy.
 */
export async function previewPolicy(
  db: Db,
  organizationId: string,
  userId: string,
  body: PolicyPreviewBody,
  onProgress: Progress,
): Promise<PolicyComparison> {
  await requireRole(db, organizationId, userId, 'admin');
  return compare(db, rangeOf(organizationId, body), body.policy, onProgress);
}

/** Checks what previewPolicy/reevaluate need before anything streams: the caller's role and the range. */
export async function checkImpactRequest(
  db: Db,
  organizationId: string,
  userId: string,
  body: { since: string; until: string },
): Promise<void> {
  await requireRole(db, organizationId, userId, 'admin');
  rangeOf(organizationId, body);
}

/**
 * Applies the saved policy to the range's submitted scans, all or nothing: each scan whose
 * violations differ gets the policy's (new ids, as a submit gives them) and its counts; the
 * rollups follow by trigger. Imported scans keep their package's violations.
 */
export async function reevaluate(
  db: Db,
  organizationId: string,
  userId: string,
  body: ReevaluateBody,
  onProgress: Progress,
): Promise<PolicyComparison> {
  const range = rangeOf(organizationId, body);
  return inTransaction(db, async (trx) => {
    await requireRole(trx, organizationId, userId, 'admin');
    const policy = await findPolicy(trx, organizationId);
    return compare(trx, range, policy, onProgress, async (scan, findings) => {
      const violations = findings.map((finding, seq) => ({
        id: newId('violation'),
        scan_id: scan.id,
        seq,
        ...finding,
      }));
      await replaceViolations(trx, scan.id, violations, worstSeverityRank(violations.map((v) => v.severity)));
    });
  });
}
