import {
  expressionBuilder,
  sql,
  type Expression,
  type ExpressionBuilder,
  type RawBuilder,
  type SelectQueryBuilder,
  type SqlBool,
} from 'kysely';
import type { ScanSource, ScanStatus } from '../../shared/api/scans';
import {
  type Database,
  type Dialect,
  dialectOf,
  type Executor,
  inList,
  type NewScan,
  powerOfTwoChunks,
  type NewViolation,
  ReusableQuery,
  SCAN_SAMPLE,
  type ScanRow,
  type ViolationRow,
} from '../db/index';
import { matchesCleanScans } from './flagged-scans';
import { walksTokenIndex } from './token-order-walk';
import { hoursOf, splitByDays, splitByHours, type Span } from './day-split';

/**
 * What a list row of a scan needs (a page, an export, the keyset after a page); the rest stays in
 * the table, where a page of 50 spent a third of its read making values nobody reads.
 */
export const LISTED_SCAN_COLUMNS = [
  'id',
  'created_at',
  'tool',
  'action',
  'tokens',
  'status',
  'source',
  'organization_id',
  'request_count',
  'violation_count',
  'worst_severity',
  'origin_remote_id',
  'origin_id',
] as const satisfies readonly (keyof ScanRow)[];
export type ListedScanRow = Pick<ScanRow, (typeof LISTED_SCAN_COLUMNS)[number]>;

/** Rows per multi-row INSERT: well under every dialect's bound-parameter limit. */
const CHUNK_ROWS = 500;

export interface ScanFilters {
  /** Epoch ms, inclusive. */
  since?: number | undefined;
  /** Epoch ms, exclusive. */
  until?: number | undefined;
  tool?: string | undefined;
  /** Any of these exact names (what a tool prefix stands for); none matches nothing. */
  tools?: readonly string[] | undefined;
  status?: ScanStatus | undefined;
  organization_id?: string | undefined;
  has_violations?: boolean | undefined;
  /** Scans that `importer` imported from a package in which their id was `id`; nobody else's. */
  package_id?: { id: string; importer: string } | undefined;
  source?: ScanSource | undefined;
  /** Pulled scans whose id on their remote is this. */
  origin_id?: string | undefined;
  /**
   * Where the scans come from, as the rollups key it: '' made here, else the remote's id; null an
   * origin not in this store, which matches nothing (docs/contract/api.md#origins).
   */
  origin_key?: string | null | undefined;
}

/** The condition an origin_key filter puts on a rollup's rows: none, or one. */
export function rollupOrigin(table: Rollup, key: string | null | undefined): RawBuilder<SqlBool>[] {
  if (key === undefined) return [];
  if (key === null) return [sql<SqlBool>`1 = 0`];
  return [sql<SqlBool>`${sql.ref(`${table}.origin_key`)} = ${key}`];
}

/** The organizations whose scans the user sees as an owner or admin. */
function managedOrganizations(userId: string) {
  return expressionBuilder<Database, never>()
    .selectFrom('memberships')
    .select('memberships.organization_id')
    .where('memberships.user_id', '=', userId)
    .where('memberships.role', 'in', ['owner', 'admin']);
}

export type Rollup =
  | 'scan_counts'
  | 'scan_days'
  | 'scan_hours'
  | 'violation_days'
  | 'organization_days'
  | 'organization_hours'
  | 'flagged_scan_days'
  | 'flagged_organization_days'
  | 'flagged_scan_hours';

/** visibleTo over a rollup, whose rows are keyed by submitter and organization like scans. */
export const visibleInRollup = (
  table: Exclude<Rollup, 'organization_days' | 'organization_hours' | 'flagged_organization_days'>,
  userId: string,
): RawBuilder<SqlBool> =>
  sql<SqlBool>`(${sql.ref(`${table}.submitted_by`)} = ${userId} or ${sql.ref(`${table}.organization_key`)} in ${managedOrganizations(userId)})`;

/** A rollup of days or hours and which of its rows a user sees. */
export interface RollupPart {
  table:
    | 'organization_days'
    | 'scan_days'
    | 'organization_hours'
    | 'scan_hours'
    | 'flagged_organization_days'
    | 'flagged_scan_days'
    | 'flagged_scan_hours';
  visible: RawBuilder<SqlBool>;
  /** The index that reads those rows by their keys, where SQLite's planner would not take it. */
  index?: 'scan_days_by_submitter' | 'scan_hours_by_submitter';
}

/** The column that keys a rollup part's rows in time: its UTC hour or day. */
export const timeColumn = (table: RollupPart['table']): 'hour' | 'day' => (table.endsWith('_hours') ? 'hour' : 'day');

/**
 * `db.selectFrom(table)` read through `index`, on SQLite only. Unaliased: SQLite takes INDEXED BY
 * only right after a table's name or alias, and silently ignores it on a parenthesized one;
 * Kysely reads an unaliased expression into FROM as it is.
 */
function selectThrough<T extends keyof Database & string>(db: Executor, table: T, index: string) {
  return db.selectFrom(sql`${sql.table(table)} indexed by ${sql.id(index)}` as unknown as T);
}

/**
 * A rollup part's rows that the caller sees and `filters` and `span` match
 * (rollupConditions), to select from: on SQLite through the part's `index`. SQLite costs a seek
 * into scan_days_by_submitter plus a lookup of each row above a walk of the primary key's days,
 * which reads every submitter's rows of those days: a 7-day part at 10M scans 0.37 ms that way,
 * 0.09 through the index (scan_hours_by_submitter likewise for hours). PostgreSQL reads that range
 * by the key on its own.
 */
export function partRows(
  db: Executor,
  { table, visible, index }: RollupPart,
  filters: ScanFilters,
  span: Span,
): SelectQueryBuilder<Database, never, object> {
  const from =
    index !== undefined && dialectOf(db) === 'sqlite' ? selectThrough(db, table, index) : db.selectFrom(table);
  return (from as unknown as SelectQueryBuilder<Database, never, object>).where((eb) =>
    eb.and([visible, ...rollupConditions(table, filters, span, dialectOf(db))]),
  );
}

/** The rows of an organization-keyed rollup in the organizations the user manages. */
const inManagedOrganizations = (
  table: 'organization_days' | 'organization_hours' | 'flagged_organization_days',
  userId: string,
) => sql<SqlBool>`${sql.ref(`${table}.organization_key`)} in ${managedOrganizations(userId)}`;

/**
 * The user's own rows of a submitter-keyed rollup outside the organizations they manage. Those
 * organizations come from the user's scan_counts rows (scan_counts_by_submitter), so that the
 * seeks by (submitter, organization) skip the user's rows in the organizations they manage: SQLite
 * would read each of those rows before dropping it. PostgreSQL plans `in (subquery)` as a join
 * over all of the user's rows in the range, every organization's, fetched from the heap before the
 * join drops most of them (a 7-day hour chart at 10M: 6,644 rows read for 1,487); `= any(array(…))`
 * is a condition of the (submitter, organization, time) index itself.
 */
function ownElsewhere(table: 'scan_days' | 'scan_hours' | 'flagged_scan_days', userId: string, dialect: Dialect) {
  const organizations = sql`select scan_counts.organization_key from scan_counts
    where scan_counts.submitted_by = ${userId} and scan_counts.organization_key not in ${managedOrganizations(userId)}`;
  const among = dialect === 'postgres' ? sql`= any(array(${organizations}))` : sql`in (${organizations})`;
  return sql<SqlBool>`${sql.ref(`${table}.submitted_by`)} = ${userId} and ${sql.ref(`${table}.organization_key`)} ${among}`;
}

/**
 * visibleTo over the day rollups in two parts that never share a scan: every submitter's scans
 * in the organizations the user manages, from organization_days (a row per organization, not per
 * submitter), and the user's own scans elsewhere, from scan_days through scan_days_by_submitter.
 */
export function visibleDayRows(userId: string, dialect: Dialect): RollupPart[] {
  return [
    { table: 'organization_days', visible: inManagedOrganizations('organization_days', userId) },
    { table: 'scan_days', visible: ownElsewhere('scan_days', userId, dialect), index: 'scan_days_by_submitter' },
  ];
}

/** visibleDayRows over the hour rollups: organization_hours, and scan_hours through scan_hours_by_submitter. */
export function visibleHourRows(userId: string, dialect: Dialect): RollupPart[] {
  return [
    { table: 'organization_hours', visible: inManagedOrganizations('organization_hours', userId) },
    { table: 'scan_hours', visible: ownElsewhere('scan_hours', userId, dialect), index: 'scan_hours_by_submitter' },
  ];
}

/** visibleDayRows over the flagged scans' rollups: flagged_scan_days is keyed from the submitter itself. */
export function visibleFlaggedDayRows(userId: string, dialect: Dialect): RollupPart[] {
  return [
    { table: 'flagged_organization_days', visible: inManagedOrganizations('flagged_organization_days', userId) },
    { table: 'flagged_scan_days', visible: ownElsewhere('flagged_scan_days', userId, dialect) },
  ];
}

/**
 * docs/contract/auth.md#visibility: a scan is visible to whoever submitted or imported it, and to the owners and admins
 * of its organization.
 */
export function visibleTo(userId: string) {
  return (eb: ExpressionBuilder<Database, 'scans'>) =>
    eb.or([eb('scans.submitted_by', '=', userId), eb('scans.organization_id', 'in', managedOrganizations(userId))]);
}

/** A list order in store terms: the column, then the id, both in `direction`. */
export interface ScanOrder {
  column: 'created_at' | 'tokens';
  direction: 'asc' | 'desc';
}

/** The list's default order, newest first (docs/contract/api.md#scan-list). */
export const NEWEST_FIRST: ScanOrder = { column: 'created_at', direction: 'desc' };

/**
 * `column` is one of `names`. One name is an equality, so that the list walks the (tool,
 * created_at, id) index in order as it does for `tool=`; none is false, which `IN ()` cannot say.
 */
function anyOf(column: `${'scans' | Rollup}.tool`, names: readonly string[]): RawBuilder<SqlBool> {
  if (names.length === 0) return sql<SqlBool>`1 = 0`;
  if (names.length === 1) return sql<SqlBool>`${sql.ref(column)} = ${names[0]}`;
  return sql<SqlBool>`${sql.ref(column)} in (${sql.join(names)})`;
}

export function matching(filters: ScanFilters) {
  return (eb: ExpressionBuilder<Database, 'scans'>) => {
    const conditions = [];
    if (filters.since !== undefined) conditions.push(eb('scans.created_at', '>=', filters.since));
    if (filters.until !== undefined) conditions.push(eb('scans.created_at', '<', filters.until));
    if (filters.tool !== undefined) conditions.push(eb('scans.tool', '=', filters.tool));
    if (filters.tools !== undefined) conditions.push(anyOf('scans.tool', filters.tools));
    if (filters.status !== undefined) conditions.push(eb('scans.status', '=', filters.status));
    if (filters.organization_id !== undefined) {
      conditions.push(eb('scans.organization_id', '=', filters.organization_id));
    }
    if (filters.has_violations !== undefined) {
      conditions.push(eb('scans.violation_count', filters.has_violations ? '>' : '=', 0));
    }
    if (filters.source !== undefined) conditions.push(eb('scans.source', '=', filters.source));
    if (filters.source !== undefined && filters.source !== 'submitted') conditions.push(MADE_OTHERWISE);
    if (filters.origin_id !== undefined) conditions.push(eb('scans.origin_id', '=', filters.origin_id));
    if (filters.origin_key === null) conditions.push(sql<SqlBool>`1 = 0`);
    else if (filters.origin_key === '') conditions.push(eb('scans.origin_remote_id', 'is', null));
    else if (filters.origin_key !== undefined) conditions.push(eb('scans.origin_remote_id', '=', filters.origin_key));
    if (filters.package_id !== undefined) {
      // A package id is the importer's own word for a scan: never looked up among another
      // user's imports, even ones the caller could otherwise see.
      conditions.push(eb('scans.package_id', '=', filters.package_id.id));
      conditions.push(eb('scans.submitted_by', '=', filters.package_id.importer));
    }
    return eb.and(conditions);
  };
}

export async function listVisibleScans(
  db: Executor,
  userId: string,
  filters: ScanFilters,
  page: { limit: number; offset: number },
  order: ScanOrder = NEWEST_FIRST,
  after?: ListedScanRow,
): Promise<{ rows: ListedScanRow[]; total: number }> {
  if (order.column === 'tokens' && dialectOf(db) === 'sqlite') {
    // The total first: how many match decides how SQLite reads the page (token-order-walk.ts).
    const total = await countVisibleScans(db, userId, filters);
    const walk = walksTokenIndex({ matches: total, scans: await storedScans(db), ...page });
    return { rows: await visibleScanPage(db, userId, filters, page, order, after, walk), total };
  }
  // Side by side: on a pool (PostgreSQL) they run on two connections, saving a round trip.
  const [rows, total] = await Promise.all([
    visibleScanPage(db, userId, filters, page, order, after),
    countVisibleScans(db, userId, filters),
  ]);
  return { rows, total };
}

/** About how many scans a SQLite store holds, anyone's: its largest rowid, one seek. */
async function storedScans(db: Executor): Promise<number> {
  const row = await db
    .selectFrom('scans')
    .select(sql<number | null>`max(rowid)`.as('last'))
    .executeTakeFirst();
  return Number(row?.last ?? 0);
}

/** One page of the visible scans matching the filters, in `order`, after the scan `after` if given. */
export async function visibleScanPage(
  db: Executor,
  userId: string,
  filters: ScanFilters,
  page: { limit: number; offset: number },
  order: ScanOrder = NEWEST_FIRST,
  after?: ListedScanRow,
  walkTokens = false,
): Promise<ListedScanRow[]> {
  return scanPageQuery(db, userId, filters, page, order, after, walkTokens).execute();
}

/** visibleScanPage's statement; on SQLite through scans_list_tokens when `walkTokens` (token-order-walk.ts). */
export function scanPageQuery(
  db: Executor,
  userId: string,
  filters: ScanFilters,
  page: { limit: number; offset: number },
  order: ScanOrder,
  after: ListedScanRow | undefined,
  walkTokens: boolean,
) {
  const base = visibleMatches(
    walkTokens ? selectThrough(db, 'scans', 'scans_list_tokens') : db.selectFrom('scans'),
    userId,
    filters,
  );
  // Keyset paging: continue after the given scan in this order, along the same (column, id)
  // index, so a deep page costs what the first one does instead of walking past every row before it.
  const rowsQuery = after
    ? base.where((eb) => {
        const beyond = order.direction === 'desc' ? '<' : '>';
        const value = after[order.column];
        return eb.or([
          eb(`scans.${order.column}`, beyond, value),
          eb.and([eb(`scans.${order.column}`, '=', value), eb('scans.id', beyond, after.id)]),
        ]);
      })
    : base;
  // The id in the same direction makes the order total, so pages neither repeat nor skip a scan,
  // and lets each order walk one (column, id) index from either end.
  return rowsQuery
    .select(LISTED_SCAN_COLUMNS)
    .orderBy(`scans.${order.column}`, order.direction)
    .orderBy('scans.id', order.direction)
    .limit(page.limit)
    .offset(page.offset);
}

/**
 * Scans not submitted here (imported, pulled): the WHERE of their index, scans_list_source. A
 * planner takes a partial index only for a query whose WHERE implies the index's, and SQLite
 * proves that from this literal term, not from `source = ?`.
 */
const MADE_OTHERWISE = sql<SqlBool>`${sql.ref('scans.source')} <> 'submitted'`;

/** The scans of `from` that the user sees and the filters match. */
const visibleMatches = <Q extends SelectQueryBuilder<Database, 'scans', object>>(
  from: Q,
  userId: string,
  filters: ScanFilters,
): Q => from.where(visibleTo(userId)).where(matching(filters)) as Q;

/** COUNT(*) of the visible scans matching the filters, over the covering list indexes. */
function countScans(db: Executor, userId: string, filters: ScanFilters): CountQuery {
  return visibleMatches(db.selectFrom('scans'), userId, filters).select((eb) => eb.fn.countAll<number>().as('total'));
}

/** A statement answering one row whose `total` is a count (null for a sum over no rows). */
type CountQuery = { execute(): Promise<{ total: number | string | bigint | null }[]> } & Expression<unknown>;

/**
 * The number of visible scans matching the filters, never an estimate, in one statement. Without
 * a time range: a sum over the scan_counts rollup (a few thousand rows at most, whatever the
 * store's size). With one, filtering at most by tool, organization and origin: the whole UTC days
 * inside it summed from the day rollups (visibleDayRows), the whole hours of its partial days from
 * the hour rollups (visibleHourRows), and at most an hour at each end counted; a status or
 * violations filter reads the flagged scans' rollups beside them (sumParts). Otherwise a count over
 * the list indexes, which carry every column the filters and the visibility rule read (~0.3 µs per
 * match).
 */
export async function countVisibleScans(db: Executor, userId: string, filters: ScanFilters): Promise<number> {
  const parts = countParts(db, userId, filters);
  // The parts as one statement: on PostgreSQL one round trip and one pool connection per list
  // request for its total, where a `since` took up to four side by side.
  const query: CountQuery =
    parts.length === 1
      ? parts[0]!
      : db.selectNoFrom(
          sql<number>`${sql.join(
            parts.map((part) => sql`coalesce((${part}), 0)`),
            sql` + `,
          )}`.as('total'),
        );
  const [row] = await query.execute();
  return Number(row?.total ?? 0);
}

function countParts(db: Executor, userId: string, filters: ScanFilters): CountQuery[] {
  // The rollups know nothing of packages; the package index finds the few matches at once. Nor
  // of sources and origins: an origin id finds its few matches by its index, and scans made
  // otherwise than by a submit are counted over their index (docs/contract/api.md#scan-list).
  if (filters.package_id !== undefined || filters.origin_id !== undefined || filters.source !== undefined) {
    if (filters.source !== 'submitted') return [countScans(db, userId, filters)];
    // Submitted scans are most of a store: every match less those made otherwise.
    const { source: _submitted, ...all } = filters;
    const otherwise = visibleMatches(db.selectFrom('scans'), userId, all)
      .where(MADE_OTHERWISE)
      .select(sql<number>`-count(*)`.as('total'));
    return [...countParts(db, userId, all), otherwise];
  }
  if (filters.since === undefined && filters.until === undefined) return [sumScanCounts(db, userId, filters)];
  const { days, edges } = splitByDays(filters);
  const dialect = dialectOf(db);
  const flaggedHours: RollupPart = {
    table: 'flagged_scan_hours',
    visible: visibleInRollup('flagged_scan_hours', userId),
  };
  return [
    ...(days
      ? sumParts(db, filters, visibleDayRows(userId, dialect), visibleFlaggedDayRows(userId, dialect), days)
      : []),
    ...edges.flatMap((edge) => {
      const { hours, edges: ends } = splitByHours(edge);
      return [
        ...(hours ? sumParts(db, filters, visibleHourRows(userId, dialect), [flaggedHours], hours) : []),
        ...ends.map((end) => countScans(db, userId, { ...filters, ...end })),
      ];
    }),
  ];
}

/**
 * The matches in `span` from rollup parts: `all` count every scan, `flagged` the flagged ones by
 * status and violations (flagged-scans.ts), which only they can answer.
 */
function sumParts(
  db: Executor,
  filters: ScanFilters,
  all: readonly RollupPart[],
  flagged: readonly RollupPart[],
  span: Span,
): CountQuery[] {
  if (filters.status === undefined && filters.has_violations === undefined) {
    return all.map((part) => sumRollup(db, filters, part, span));
  }
  if (!matchesCleanScans(filters)) return flagged.map((part) => sumRollup(db, filters, part, span));
  const { status: _status, has_violations: _violations, ...unflagged } = filters;
  return [
    ...all.map((part) => sumRollup(db, unflagged, part, span)),
    ...flagged.map((part) => sumRollup(db, unflagged, part, span, flagCondition(part.table, filters))),
  ];
}

/** The status and violations terms of `filters` over a rollup's rows, or null for none. */
function flagCondition(table: RollupPart['table'], filters: ScanFilters): RawBuilder<SqlBool> | null {
  const terms = [
    ...(filters.status === undefined ? [] : [sql<SqlBool>`${sql.ref(`${table}.status`)} = ${filters.status}`]),
    ...(filters.has_violations === undefined
      ? []
      : [sql<SqlBool>`${sql.ref(`${table}.with_violations`)} = ${filters.has_violations ? 1 : 0}`]),
  ];
  return terms.length === 0 ? null : sql<SqlBool>`(${sql.join(terms, sql` and `)})`;
}

function sumScanCounts(db: Executor, userId: string, filters: ScanFilters): CountQuery {
  return db
    .selectFrom('scan_counts')
    .where(visibleInRollup('scan_counts', userId))
    .where((eb) =>
      eb.and([
        ...(filters.tool === undefined ? [] : [eb('scan_counts.tool', '=', filters.tool)]),
        ...(filters.tools === undefined ? [] : [anyOf('scan_counts.tool', filters.tools)]),
        ...(filters.status === undefined ? [] : [eb('scan_counts.status', '=', filters.status)]),
        ...(filters.organization_id === undefined
          ? []
          : [eb('scan_counts.organization_key', '=', filters.organization_id)]),
        ...rollupOrigin('scan_counts', filters.origin_key),
        ...(filters.has_violations === undefined
          ? []
          : [eb('scan_counts.with_violations', '=', filters.has_violations ? 1 : 0)]),
      ]),
    )
    .select((eb) => eb.fn.sum<number | null>('scan_counts.scans').as('total'));
}

/**
 * The filters a rollup can answer (tool, organization, origin; status and violations the flagged
 * rollups) and a span of its days or hours, as conditions on `table`'s rows.
 */
function rollupConditions(
  table: RollupPart['table'],
  filters: ScanFilters,
  span: Span,
  dialect: Dialect,
): RawBuilder<SqlBool>[] {
  const grain = timeColumn(table);
  const at = sql.ref(`${table}.${grain}`);
  const column = (name: string) => sql.ref(`${table}.${name}`);
  const hours = grain === 'hour' ? hoursOf(span) : null;
  const flags = flagCondition(table, filters);
  // The hours one by one, so that a filter by tool seeks each (hour, tool) of the key. On
  // PostgreSQL as one array: a parameter per hour made a count's text differ with the number of
  // hours and pass 64 parameters, and then it was parsed anew at every request.
  const inHours = (list: readonly number[]) =>
    dialect === 'postgres' ? sql<SqlBool>`${at} = any(${list}::bigint[])` : sql<SqlBool>`${at} in (${sql.join(list)})`;
  const time = hours?.length
    ? [inHours(hours)]
    : [
        ...(span.since === undefined ? [] : [sql<SqlBool>`${at} >= ${span.since}`]),
        ...(span.until === undefined ? [] : [sql<SqlBool>`${at} < ${span.until}`]),
      ];
  return [
    ...(filters.tool === undefined ? [] : [sql<SqlBool>`${column('tool')} = ${filters.tool}`]),
    ...(filters.tools === undefined ? [] : [anyOf(`${table}.tool`, filters.tools)]),
    ...(filters.organization_id === undefined
      ? []
      : [sql<SqlBool>`${column('organization_key')} = ${filters.organization_id}`]),
    ...rollupOrigin(table, filters.origin_key),
    ...(flags === null ? [] : [flags]),
    ...time,
  ];
}

/**
 * The scans of a rollup's visible rows in `span` (whole days of the day rollups, whole hours of the
 * hour rollups); negated, of those rows that miss `except`, when given.
 */
function sumRollup(
  db: Executor,
  filters: ScanFilters,
  part: RollupPart,
  span: Span,
  except?: RawBuilder<SqlBool> | null,
): CountQuery {
  const scans = sql.ref(`${part.table}.scans`);
  const rows = partRows(db, part, filters, span);
  return except === undefined || except === null
    ? rows.select(sql<number | null>`sum(${scans})`.as('total'))
    : rows.where(sql<SqlBool>`not ${except}`).select(sql<number | null>`-sum(${scans})`.as('total'));
}

export async function findScan(db: Executor, id: string): Promise<ScanRow | undefined> {
  return db.selectFrom('scans').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findVisibleScan(db: Executor, id: string, userId: string): Promise<ScanRow | undefined> {
  return db.selectFrom('scans').selectAll().where('id', '=', id).where(visibleTo(userId)).executeTakeFirst();
}

export async function findViolations(db: Executor, scanId: string): Promise<ViolationRow[]> {
  return db.selectFrom('violations').selectAll().where('scan_id', '=', scanId).orderBy('seq').execute();
}

/** The scans among `ids` that the user can see, in one statement (callers chunk long lists). */
export async function findVisibleScans(db: Executor, ids: readonly string[], userId: string): Promise<ScanRow[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom('scans')
    .selectAll()
    .where(inList(db, 'scans.id', ids))
    .where(visibleTo(userId))
    .execute();
}

/** The violations of several scans, each scan's in seq order, in one statement. */
export async function findViolationsOf(db: Executor, scanIds: readonly string[]): Promise<Map<string, ViolationRow[]>> {
  const byScan = new Map<string, ViolationRow[]>(scanIds.map((id) => [id, []]));
  if (scanIds.length === 0) return byScan;
  const rows = await db
    .selectFrom('violations')
    .selectAll()
    .where(inList(db, 'scan_id', scanIds))
    .orderBy('scan_id')
    .orderBy('seq')
    .execute();
  for (const row of rows) byScan.get(row.scan_id)?.push(row);
  return byScan;
}

const SCAN_COLUMNS = Object.keys(SCAN_SAMPLE) as (keyof NewScan)[];
const INSERT_SCANS = new ReusableQuery((db, rows: number) =>
  db.insertInto('scans').values(Array.from({ length: rows }, () => SCAN_SAMPLE)),
);

/** Submitted scans: a multi-row INSERT per chunk (powerOfTwoChunks, up to 64 rows). */
export async function insertScans(db: Executor, scans: readonly NewScan[]): Promise<void> {
  for (const chunk of powerOfTwoChunks(scans, 64)) {
    await INSERT_SCANS.execute(
      db,
      chunk.flatMap((scan) => SCAN_COLUMNS.map((column) => scan[column])),
      chunk.length,
    );
  }
}

const IMPORTED_SCAN_SAMPLE = { ...SCAN_SAMPLE, package_id: null, package_origin: null } as const;
const IMPORTED_SCAN_COLUMNS = Object.keys(IMPORTED_SCAN_SAMPLE) as (keyof NewScan)[];
const INSERT_IMPORTED_SCAN = new ReusableQuery((db) => db.insertInto('scans').values(IMPORTED_SCAN_SAMPLE));

/** An imported scan, with the id it had in its package and where that came from. */
export async function insertImportedScan(db: Executor, scan: NewScan): Promise<void> {
  await INSERT_IMPORTED_SCAN.execute(
    db,
    IMPORTED_SCAN_COLUMNS.map((column) => scan[column] ?? null),
  );
}

export async function insertViolations(db: Executor, rows: readonly NewViolation[]): Promise<void> {
  for (let start = 0; start < rows.length; start += CHUNK_ROWS) {
    await db
      .insertInto('violations')
      .values(rows.slice(start, start + CHUNK_ROWS))
      .execute();
  }
}
