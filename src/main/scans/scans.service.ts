import {
  DEFAULT_SCAN_LIST_SORT,
  SCAN_VIOLATIONS_INLINE_MAX,
  type Scan,
  type ScanList,
  type ScanListQuery,
  type ScanListSort,
  type SubmitScanBody,
} from '../../shared/api/scans';
import { evaluatePolicy } from '../../shared/policy/evaluate-policy';
import { worstSeverityRank } from '../../shared/policy/severity';
import { parseDateOrDateTime, parseDateTime, parseUntil } from '../../shared/time';
import {
  type Db,
  type Executor,
  type NewViolation,
  type ScanRow,
  type SubmitKeyRow,
  storeOf,
  type ViolationRow,
} from '../db/index';
import { newId } from '../ids';
import { findRole } from '../organizations/organizations.repository';
import { findPolicy } from '../policies/policies.repository';
import { conflict, DomainError, notFound } from '../domain-error';
import { toScan, toScanFor, toScanNotice, toScanSummary, toSyncMarks } from './scan-mapping';
import { acknowledgedPushes, remoteIdByName, remoteName, remoteNames } from './scan-remotes.repository';
import { LOCAL_ORIGIN } from '../../shared/api/origins';
import { GridRecorder } from '../evidence/timeline/timeline-cells.repository';
import type { StoredTimelineEntry } from '../evidence/timeline/timeline-entry';
import { GRID_MIN_ENTRIES } from '../evidence/timeline/timeline-grid';
import { insertTimeline } from '../evidence/timeline/timeline-writes.repository';
import { ScanFeed } from '../live/scan-feed';
import * as repo from './scans.repository';
import { findSubmitKey, insertSubmitKey } from './submit-keys.repository';
import {
  type ChangeSeqOf,
  insertSubmittedScan,
  storeSubmittedScan,
  type SubmittedScanRow,
} from './submitted-scan.repository';
import { submittedAt } from './submit-time';
import { toolsWithPrefix } from './tools.service';
import { violationRows } from './violations.repository';

const time = (text: string | undefined, parse: (text: string) => number | null): number | undefined =>
  text === undefined ? undefined : (parse(text) ?? undefined);

/**
 * The list filters of docs/contract/api.md#scan-list in store terms; `since`/`until` were validated by the schema.
 * `importer`, the caller, is whose imports a `package_id` is looked up among.
 */
export function toFilters(
  query: Omit<Partial<ScanListQuery>, 'limit' | 'offset' | 'sort' | 'after'>,
  importer?: string,
): repo.ScanFilters {
  if (query.package_id !== undefined && importer === undefined) {
    throw new Error('a package_id filter needs the caller, whose imports it searches');
  }
  return {
    since: time(query.since, parseDateOrDateTime),
    until: time(query.until, parseUntil),
    tool: query.tool,
    status: query.status,
    organization_id: query.organization_id,
    has_violations: query.has_violations,
    package_id: query.package_id === undefined ? undefined : { id: query.package_id, importer: importer! },
    source: query.source,
    origin_id: query.origin_id,
  };
}

/** An `origin` filter in store terms: '' made here, a remote's id, or null for a name no remote has. */
async function originKey(db: Db, origin: string | undefined): Promise<string | null | undefined> {
  if (origin === undefined) return undefined;
  if (origin === LOCAL_ORIGIN) return '';
  return (await remoteIdByName(db, origin)) ?? null;
}

/**
 * toFilters, with a `tool_prefix` turned into the exact tool names it stands for among the user's
 * scans and an `origin` into the key the store has for it.
 */
export async function resolveFilters(
  db: Db,
  userId: string,
  query: Omit<Partial<ScanListQuery>, 'limit' | 'offset' | 'sort' | 'after'>,
): Promise<repo.ScanFilters> {
  const filters = { ...toFilters(query, userId), origin_key: await originKey(db, query.origin) };
  if (query.tool_prefix === undefined) return filters;
  return { ...filters, tools: await toolsWithPrefix(db, userId, query.tool_prefix) };
}

const ORDERS: Readonly<Record<ScanListSort, repo.ScanOrder>> = {
  '-created_at': { column: 'created_at', direction: 'desc' },
  created_at: { column: 'created_at', direction: 'asc' },
  '-tokens': { column: 'tokens', direction: 'desc' },
  tokens: { column: 'tokens', direction: 'asc' },
};

export const toOrder = (sort: ScanListSort = DEFAULT_SCAN_LIST_SORT): repo.ScanOrder => ORDERS[sort];

export async function listScans(db: Db, userId: string, query: ScanListQuery): Promise<ScanList> {
  const after = query.after === undefined ? undefined : await repo.findVisibleScan(db, query.after, userId);
  if (query.after !== undefined && !after) {
    throw new DomainError('validation_failed', 'after must be the id of a scan in the list', [
      { field: 'after', message: 'is not a scan you can see' },
    ]);
  }
  const { rows, total } = await repo.listVisibleScans(
    db,
    userId,
    await resolveFilters(db, userId, query),
    { limit: query.limit, offset: query.offset },
    toOrder(query.sort),
    after,
  );
  // A pulled row says where it came from, its remote named as on the scan object.
  const remotes = await remoteNames(db, [...new Set(rows.flatMap((row) => row.origin_remote_id ?? []))]);
  const scans = rows.map((row) => {
    const summary = toScanSummary(row);
    if (row.origin_id === null) return summary;
    const remote = row.origin_remote_id === null ? null : (remotes.get(row.origin_remote_id) ?? null);
    return { ...summary, origin: { remote, id: row.origin_id } };
  });
  return { scans, total };
}

export async function readScan(db: Db, userId: string, id: string): Promise<Scan> {
  const row = await repo.findVisibleScan(db, id, userId);
  if (!row) throw notFound('scan');
  const [violations, remote, pushes] = await Promise.all([
    violationRows(db, id, { offset: 0, limit: SCAN_VIOLATIONS_INLINE_MAX }),
    row.origin_remote_id === null ? undefined : remoteName(db, row.origin_remote_id),
    // Only what is made here is pushed.
    row.source === 'submitted' ? acknowledgedPushes(db, id) : [],
  ]);
  return { ...toScanFor(userId, row, violations), ...toSyncMarks(row, remote ?? null, pushes) };
}

/** The timeline to store: the submitted one in timestamp order (stable), else one entry for the scan. */
function entriesToStore(body: SubmitScanBody, createdAt: number): StoredTimelineEntry[] {
  if (!body.timeline) return [{ timestamp: createdAt, action: body.action, tokens: body.tokens }];
  // The schema's date-time format is parseDateTime itself: every timestamp here parses.
  const entries = body.timeline.map((entry) => ({
    timestamp: parseDateTime(entry.timestamp)!,
    action: entry.action,
    tokens: entry.tokens,
  }));
  // BigInt: 100,000 entries of up to 2^53 tokens can overflow a double's exact range.
  const sum = entries.reduce((total, entry) => total + BigInt(entry.tokens), 0n);
  if (sum !== BigInt(body.tokens)) {
    throw new DomainError('validation_failed', `tokens must equal the sum of the timeline's tokens (${sum})`, [
      { field: 'tokens', message: `must equal the sum of the timeline's tokens, ${sum}` },
    ]);
  }
  return entries.sort((a, b) => a.timestamp - b.timestamp);
}

/** An idempotent submit's key and the digest of its body (docs/contract/api.md#idempotent-submit). */
export interface SubmitKey {
  key: string;
  digest: string;
}

/** What a submit's work in its group commit did: found its key's scan, or stored the scan. */
type SubmitOutcome =
  | { replayOf: SubmitKeyRow }
  | { stored: { scanRow: Omit<ScanRow, 'change_seq'>; violations: ViolationRow[]; changeSeq: ChangeSeqOf } };

/** What a submit answers: the scan, and whether its key had stored it already (200, not 201). */
export interface Submitted {
  scan: Scan;
  replayed: boolean;
}

/**
 * Stores a submitted scan with its timeline and the violations its organization's policy implies,
 * all or nothing (docs/contract/api.md#scans, docs/contract/policies.md#rules): in a savepoint of a
 * group commit shared with concurrent submissions, settled only once committed. With a key, the
 * key is stored in the same savepoint; a key already stored answers its scan as it is now, and
 * with another body is refused (docs/contract/api.md#idempotent-submit).
 */
export async function submitScan(
  db: Db,
  userId: string,
  body: SubmitScanBody,
  idempotency?: SubmitKey,
): Promise<Submitted> {
  const createdAt = submittedAt(body.created_at, Date.now());
  const timeline = entriesToStore(body, createdAt);
  const scanId = newId('scan');
  const outcome = await storeOf(db).batcher.run<SubmitOutcome>(async (trx) => {
    if (idempotency) {
      const stored = await findSubmitKey(trx, userId, idempotency.key);
      if (stored) return { replayOf: stored };
    }
    const organizationId = body.organization_id ?? null;
    if (organizationId !== null && !(await findRole(trx, organizationId, userId))) {
      throw new DomainError('not_found', 'organization not found', [
        { field: 'organization_id', message: 'no such organization among yours' },
      ]);
    }
    const findings =
      organizationId === null
        ? []
        : evaluatePolicy(await findPolicy(trx, organizationId), { tool: body.tool, tokens: body.tokens, timeline });
    const violations = findings.map((finding, seq) => ({ id: newId('violation'), scan_id: scanId, seq, ...finding }));
    const scanRow = {
      id: scanId,
      created_at: createdAt,
      tool: body.tool,
      action: body.action,
      tokens: body.tokens,
      status: 'completed' as const,
      source: 'submitted' as const,
      organization_id: organizationId,
      submitted_by: userId,
      token_breakdown: JSON.stringify(body.token_breakdown ?? {}),
      request_count: timeline.length,
      violation_count: violations.length,
      worst_severity: worstSeverityRank(violations.map((v) => v.severity)),
      package_id: null,
      package_origin: null,
      origin_remote_id: null,
      origin_id: null,
    };
    const changeSeq = await storeScan(db, trx, scanRow, timeline, violations, idempotency);
    return { stored: { scanRow, violations, changeSeq } };
  });
  if ('replayOf' in outcome) {
    if (outcome.replayOf.body_sha256 !== idempotency!.digest) {
      throw conflict('this Idempotency-Key was already used with another body; send a new key for a new scan', [
        { field: 'idempotency-key', message: 'was used with another body' },
      ]);
    }
    return { replayed: true, scan: await readScan(db, userId, outcome.replayOf.scan_id) };
  }
  const { scanRow, violations, changeSeq } = outcome.stored;
  const row = { ...scanRow, change_seq: changeSeq() };
  ScanFeed.of(db).publish([toScanNotice(row)]);
  return { replayed: false, scan: toScan(row, violations.slice(0, SCAN_VIOLATIONS_INLINE_MAX)) };
}

/**
 * A submit's writes, in its transaction `trx`: with a key, the key before the timeline (a key that
 * a concurrent request holds fails there, before the costly part); a timeline long enough for a
 * grid of summary cells at once with its grid; a short one without a key maybe at the batch's end
 * (storeSubmittedScan). On PostgreSQL other writers of scans wait from the scan's change seq to
 * the commit.
 */
async function storeScan(
  db: Db,
  trx: Executor,
  scanRow: SubmittedScanRow,
  timeline: readonly StoredTimelineEntry[],
  violations: readonly NewViolation[],
  idempotency: SubmitKey | undefined,
): Promise<ChangeSeqOf> {
  if (!idempotency && timeline.length <= GRID_MIN_ENTRIES)
    return storeSubmittedScan(trx, scanRow, timeline, violations);
  const changeSeq = await insertSubmittedScan(trx, scanRow, idempotency ? null : timeline);
  if (idempotency) {
    await insertSubmitKey(trx, {
      user_id: scanRow.submitted_by,
      key: idempotency.key,
      scan_id: scanRow.id,
      body_sha256: idempotency.digest,
      created_at: Date.now(),
    });
    await insertTimeline(trx, scanRow.id, timeline);
  }
  if (timeline.length > GRID_MIN_ENTRIES) {
    const grid = new GridRecorder();
    for (const entry of timeline) grid.push(entry.timestamp, entry.tokens);
    await grid.store(db, trx, scanRow.id);
  }
  await repo.insertViolations(trx, violations);
  return () => changeSeq;
}
