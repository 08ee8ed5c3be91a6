import type { Severity } from '../../shared/api/scans';
import type { Executor, ViolationRow } from '../db/index';

// A scan's violations read a page, a count or a range of entries at a time: a scan may have
// hundreds of thousands (one per timeline entry and rule), too many to read whole for one answer.

/** Which of a scan's violations: of one rule, of one severity, or all. */
export interface ViolationFilter {
  rule?: string | undefined;
  severity?: Severity | undefined;
}

/** Up to `limit` of the scan's violations (those the filter selects) from position `offset`, in the scan's order. */
export async function violationRows(
  db: Executor,
  scanId: string,
  page: { offset: number; limit: number } & ViolationFilter,
): Promise<ViolationRow[]> {
  // Along the (scan_id, seq) unique index: unfiltered, the offset walks index entries only; a
  // rule's page reads the scan's violations up to it, which one scan's count bounds.
  return db
    .selectFrom('violations')
    .selectAll()
    .where('scan_id', '=', scanId)
    .$if(page.rule !== undefined, (q) => q.where('rule', '=', page.rule!))
    .$if(page.severity !== undefined, (q) => q.where('severity', '=', page.severity!))
    .orderBy('seq')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

/** How many of the scan's violations the filter selects. */
export async function violationCount(db: Executor, scanId: string, filter: ViolationFilter): Promise<number> {
  const row = await db
    .selectFrom('violations')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('scan_id', '=', scanId)
    .$if(filter.rule !== undefined, (q) => q.where('rule', '=', filter.rule!))
    .$if(filter.severity !== undefined, (q) => q.where('severity', '=', filter.severity!))
    .executeTakeFirstOrThrow();
  // PostgreSQL answers count(*) as a bigint, which its driver gives as text.
  return Number(row.count);
}

export interface RuleCount {
  rule: string;
  severity: Severity;
  count: number;
  /** Of them, those that point at a timeline entry. */
  withEntry: number;
}

/** The scan's violations counted by rule and severity. */
export async function violationCountsByRule(db: Executor, scanId: string): Promise<RuleCount[]> {
  const rows = await db
    .selectFrom('violations')
    .select((eb) => [
      'rule',
      'severity',
      eb.fn.countAll<number | string>().as('count'),
      eb.fn.count<number | string>('timeline_index').as('with_entry'),
    ])
    .where('scan_id', '=', scanId)
    .groupBy(['rule', 'severity'])
    .execute();
  // PostgreSQL answers count(*) as a bigint, which its driver gives as text.
  return rows.map((row) => ({
    rule: row.rule,
    severity: row.severity,
    count: Number(row.count),
    withEntry: Number(row.with_entry),
  }));
}

/** Timeline index → violations pointing at it, for indexes from `first` to `last` inclusive. */
export async function violationCountsByEntry(
  db: Executor,
  scanId: string,
  range: { first: number; last: number },
): Promise<{ index: number; count: number }[]> {
  const rows = await db
    .selectFrom('violations')
    .select((eb) => ['timeline_index', eb.fn.countAll<number | string>().as('count')])
    .where('scan_id', '=', scanId)
    .where('timeline_index', '>=', range.first)
    .where('timeline_index', '<=', range.last)
    .groupBy('timeline_index')
    .orderBy('timeline_index')
    .execute();
  return rows.map((row) => ({ index: Number(row.timeline_index), count: Number(row.count) }));
}
