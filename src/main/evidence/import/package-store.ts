import type { ImportResult } from '../../../shared/api/evidence';
import type { ScanStatus, TokenBreakdown, Violation } from '../../../shared/api/scans';
import { worstSeverityRank } from '../../../shared/policy/severity';
import { parseDateOrDateTime } from '../../../shared/time';
import type { Db, Executor } from '../../db/database';
import type { NewScan, ScanRow } from '../../db/tables/scan.table';
import { toViolation } from '../../scans/scan-mapping';
import { findScan, findViolations, insertScan, insertViolations } from '../../scans/scans.repository';
import { DomainError } from '../../http/domain-error';
import { timelineChunks, TimelineWriter } from '../evidence.repository';
import type { CheckedScan } from './package-check';
import { derivedScanId, derivedViolationId } from './import-ids';
import type { InflateBudget } from './package-archive';
import type { StoredEntry } from './package-documents';
import { sameViolations, TIMELINE_CHUNK } from './package-scan';

// Pass 2 of an import: each checked scan compared with what the store holds under its id, and
// written when new. Runs inside the caller's transaction; the archive is read again only for
// timelines.

/** The scan row SPEC.md §8 asks for, stored as `id`, with the upstream defaults applied. */
function scanRow(checked: CheckedScan, violations: readonly Violation[], userId: string, id: string): NewScan {
  const { scan, first } = checked;
  const document = scan.scan;
  return {
    id,
    created_at: document ? parseDateOrDateTime(document.created_at)! : first!.timestamp,
    tool: document?.tool ?? 'unknown',
    action: document?.action ?? first!.action,
    tokens: document?.tokens ?? scan.evidence.total_tokens,
    status: document?.status ?? ('completed' satisfies ScanStatus),
    source: 'imported',
    organization_id: null,
    submitted_by: userId,
    token_breakdown: JSON.stringify(scan.tokenBreakdown),
    request_count: checked.count,
    violation_count: violations.length,
    worst_severity: worstSeverityRank(violations.map((v) => v.severity)),
  };
}

/** Key order is not content: `{a, b}` and `{b, a}` are the same breakdown. */
const canonical = (breakdown: TokenBreakdown): string =>
  JSON.stringify(Object.entries(breakdown).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));

/**
 * The first way the stored scan differs from the package, or null when they are the same scan.
 * Organization, source and owner are where a scan lives, not what it is, so they do not count.
 */
async function difference(
  trx: Executor,
  stored: ScanRow,
  row: NewScan,
  tokenBreakdown: TokenBreakdown,
  violations: readonly Violation[],
  timeline: AsyncIterable<StoredEntry[]>,
): Promise<string | null> {
  for (const field of ['tool', 'action', 'tokens', 'status', 'created_at'] as const) {
    if (stored[field] !== row[field]) return `${field} differs`;
  }
  if (canonical(JSON.parse(stored.token_breakdown) as TokenBreakdown) !== canonical(tokenBreakdown)) {
    return 'token_breakdown differs';
  }
  if (!sameViolations((await findViolations(trx, stored.id)).map(toViolation), violations)) {
    return 'violations differ';
  }
  if (stored.request_count !== row.request_count) return 'the timeline differs in length';
  // Both sides a chunk at a time: a million entries compare in constant memory.
  const storedChunks = timelineChunks(trx, stored.id, TIMELINE_CHUNK);
  let rows: StoredEntry[] = [];
  let at = 0;
  let index = 0;
  try {
    for await (const chunk of timeline) {
      for (const entry of chunk) {
        if (at === rows.length) {
          const next = await storedChunks.next();
          if (next.done) return 'the timeline differs in length';
          rows = next.value;
          at = 0;
        }
        const mine = rows[at++]!;
        if (mine.timestamp !== entry.timestamp || mine.action !== entry.action || mine.tokens !== entry.tokens) {
          return `timeline entry ${index} differs`;
        }
        index += 1;
      }
    }
  } finally {
    await storedChunks.return(undefined);
  }
  return null;
}

/** Where an import stores a package scan, and the scan already there, if any. */
interface ImportTarget {
  id: string;
  /** Stored under an id derived from the importer and the package id, not under the package id. */
  derived: boolean;
  existing: ScanRow | undefined;
}

/**
 * docs/security.md, Imported ids: a package id names the importer's own scan, or else the scan is
 * stored under derivedScanId(user, id). Another user's scan with the package id changes nothing:
 * it is never compared, never blocks, and both cases run the same two lookups.
 */
async function importTarget(trx: Executor, userId: string, packageId: string, entry: string): Promise<ImportTarget> {
  const literal = await findScan(trx, packageId);
  if (literal?.submitted_by === userId) return { id: packageId, derived: false, existing: literal };
  const id = derivedScanId(userId, packageId);
  const existing = await findScan(trx, id);
  // Nobody can import under another user's derived id; only a scan imported before the rule can hold one.
  if (existing && existing.submitted_by !== userId) {
    throw new DomainError('conflict', `scan ${packageId} cannot be stored: the id it would take is in use`, [
      { field: 'scan_id', entry, message: `${packageId}: the id it would be stored under is in use` },
    ]);
  }
  return { id, derived: true, existing };
}

/**
 * Violation ids are unique across the store. A taken one is named by the package's id for it,
 * never by the scan that holds it, which may be another user's.
 */
async function refuseTakenViolationIds(
  trx: Executor,
  packageScanId: string,
  entry: string,
  violations: readonly Violation[],
  packageViolations: readonly Violation[],
): Promise<void> {
  for (let start = 0; start < violations.length; start += 500) {
    const ids = violations.slice(start, start + 500).map((v) => v.id);
    const taken = await trx.selectFrom('violations').select('id').where('id', 'in', ids).executeTakeFirst();
    if (taken) {
      const packageId = packageViolations[violations.findIndex((v) => v.id === taken.id)]!.id;
      const message = `violation ${packageId} of scan ${packageScanId}: the id it would be stored under is in use`;
      throw new DomainError('conflict', message, [{ field: 'violations', entry, message }]);
    }
  }
}

/**
 * Stores checked scans as `userId`'s, inside the caller's transaction `trx` on `db`; `onStored`
 * hears of each scan written (not of those found unchanged).
 */
export async function storePackageScans(
  db: Db,
  trx: Executor,
  userId: string,
  scans: readonly CheckedScan[],
  budget: InflateBudget,
  onStored: (row: ScanRow) => void = () => undefined,
): Promise<ImportResult> {
  const imported: string[] = [];
  const unchanged: string[] = [];
  const ids = new Map<string, string>();
  const writer = new TimelineWriter(db, trx);
  for (const checked of scans) {
    const { id: packageId, evidenceEntry: entry } = checked.scan;
    const target = await importTarget(trx, userId, packageId, entry);
    const { id } = target;
    ids.set(packageId, id);
    const packaged = checked.scan.violations;
    const violations = target.derived
      ? packaged.map((violation) => ({ ...violation, id: derivedViolationId(userId, violation.id) }))
      : packaged;
    const row = scanRow(checked, violations, userId, id);
    const timeline = checked.scan.timeline.read(budget);
    if (target.existing) {
      // The importer's own scan: naming what differs tells them only about their own data.
      const why = await difference(trx, target.existing, row, checked.scan.tokenBreakdown, violations, timeline);
      if (why !== null) {
        const stored = id === packageId ? '' : ` (stored as ${id})`;
        throw new DomainError('conflict', `scan ${packageId}${stored} already exists with different content`, [
          { field: 'scan_id', entry, message: `${packageId}: ${why}` },
        ]);
      }
      unchanged.push(id);
      continue;
    }
    await refuseTakenViolationIds(trx, packageId, entry, violations, packaged);
    await insertScan(trx, row);
    writer.begin(id);
    for await (const chunk of timeline) await writer.write(chunk);
    await writer.end();
    await insertViolations(
      trx,
      violations.map((violation, i) => ({ ...violation, scan_id: id, seq: i })),
    );
    imported.push(id);
    onStored({ ...row, organization_id: row.organization_id ?? null });
  }
  // fromEntries defines each key as data: a package id `__proto__` stays a key like any other.
  return { imported, unchanged, ids: Object.fromEntries(ids) };
}
