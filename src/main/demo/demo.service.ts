import {
  BulkInserter,
  type DatabaseLocation,
  type Db,
  dialectOf,
  type Executor,
  inTransaction,
  nextChangeSeq,
  relaxForBulkLoad,
  relaxTransaction,
  SCAN_SAMPLE,
  VIOLATION_SAMPLE,
  withLoadTables,
  withoutForeignKeys,
  withoutSecondaryIndexes,
  withRollbackJournal,
} from '../db/index';
import { insertOrganization, upsertMembership } from '../organizations/organizations.repository';
import { savePolicy } from '../policies/policies.repository';
import { insertTeam, insertTeamMember, teamNameKey } from '../teams/teams.repository';
import { findWorkspaceOwner, insertUser } from '../users/users.repository';
import { WorkspaceError, openWorkspace } from '../workspace/workspace';
import { newTimelineIds, timelineInserter, timelinesInserter } from '../evidence/timeline/timeline-writes.repository';
import { ScanGenerator, createWorld, type DemoScan, type DemoWorld } from './generate';
import { Random } from './random';

export interface DemoOptions {
  dataDir: string;
  /** A PostgreSQL store instead of the data directory's SQLite file. */
  database?: DatabaseLocation | undefined;
  scans: number;
  seed: number;
  /** Epoch ms: scans fall in the 90 days before it. */
  now: number;
  /** `SCANDESK_TOKEN` when the data directory is new, as for `serve`. */
  initialToken?: string | undefined;
  /** Scans per batch: per progress report, and per transaction on PostgreSQL. */
  batchSize?: number;
  /** Rows per multi-row INSERT. */
  chunkRows?: number;
  /** Called after every committed batch. */
  onProgress?: (done: number, total: number) => void;
}

export interface DemoSummary {
  dataDir: string;
  /** Set when the data directory was new and its owner token was just written. */
  createdToken: boolean;
  scans: number;
  timelineEntries: number;
  violations: number;
  organizations: number;
  users: number;
  teams: number;
  elapsedMs: number;
}

const DEFAULT_BATCH = 5_000;
/**
 * On PostgreSQL a batch is a transaction: 25,000 scans a batch loaded 40,000 scans in 38 s where
 * 5,000 took 44–56 s (2 loaded cores, paired runs). Another server's writes to the rollup rows a
 * batch touched wait for its commit, so a batch stays a few seconds' work.
 */
const POSTGRES_BATCH = 25_000;
const DEFAULT_CHUNK = 100;

/**
 * Fills a store (new or existing) with deterministic demo data: organizations, people,
 * teams and policies, then `scans` scans with timelines and the violations the policy engine
 * finds, loaded in large transactions through compile-once multi-row inserts.
 */
export async function runDemo(options: DemoOptions): Promise<DemoSummary> {
  const started = performance.now();
  // The workspace does what every start does: migrations, the owner and its token file.
  const workspace = await openWorkspace(options.dataDir, {
    initialToken: options.initialToken,
    database: options.database,
  });
  try {
    const { db } = workspace;
    const owner = await findWorkspaceOwner(db);
    if (!owner) throw new WorkspaceError('the store has no workspace owner');
    // The world and then the scans, from one PRNG: each call replays both from the seed.
    const generate = () => {
      const random = new Random(options.seed);
      const world = createWorld(random, owner.id, options.now);
      return { world, scans: new ScanGenerator(world, random, options.scans) };
    };
    const { world } = generate();
    await insertWorld(db, world);

    const restore = relaxForBulkLoad(db);
    const counts = { timelineEntries: 0, violations: 0 };
    const chunkRows = options.chunkRows ?? DEFAULT_CHUNK;
    const batchSize = options.batchSize ?? (dialectOf(db) === 'postgres' ? POSTGRES_BATCH : DEFAULT_BATCH);
    /**
     * Every scan, a batch at a time, each batch written by `write`; from the first scan again when
     * called again (a transaction that retries its whole load).
     */
    const load = async (write: (batch: readonly DemoScan[]) => Promise<Written>): Promise<void> => {
      const generator = generate().scans;
      const batch: DemoScan[] = [];
      let done = 0;
      counts.timelineEntries = 0;
      counts.violations = 0;
      for (let scan = generator.next(); scan; scan = generator.next()) {
        batch.push(scan);
        if (batch.length === batchSize || done + batch.length === options.scans) {
          const written = await write(batch);
          counts.timelineEntries += written.timelineEntries;
          counts.violations += written.violations;
          done += batch.length;
          batch.length = 0;
          options.onProgress?.(done, options.scans);
        }
      }
    };
    try {
      if (dialectOf(db) === 'sqlite') {
        // One transaction, the scans' list indexes built once at the end, through a rollback
        // journal when the store is the demo's alone. With a server on it, in WAL: the server
        // reads on meanwhile and sees all of the demo or none of it; its writes wait for it.
        await withRollbackJournal(db, () =>
          inTransaction(db, (trx) =>
            withoutSecondaryIndexes(trx, 'scans', () => load((batch) => insertBatch(db, trx, batch, chunkRows))),
          ),
        );
      } else if (await hasScans(db)) {
        // A transaction per batch: PostgreSQL's writes from other servers go on between them.
        await load((batch) =>
          inTransaction(db, (trx) => insertBatch(db, trx, batch, chunkRows), { isolation: 'read committed' }),
        );
      } else {
        // A store without scans yet: one transaction, the scans' list indexes built and the
        // foreign keys checked once at the end (a row's index inserts and key checks were most
        // of a PostgreSQL demo's time). The tables stay locked until it commits, readers too:
        // nobody has anything in them to read yet.
        await inTransaction(
          db,
          (trx) =>
            withoutForeignKeys(trx, BULK_TABLES, () =>
              withoutSecondaryIndexes(trx, 'scans', () =>
                withLoadTables(trx, ['scans', 'violations'], (into) =>
                  load((batch) => insertBatch(db, trx, batch, chunkRows, into)),
                ),
              ),
            ),
          { isolation: 'read committed' },
        );
      }
    } finally {
      await restore();
    }
    return {
      dataDir: options.dataDir,
      createdToken: workspace.createdToken !== null,
      scans: options.scans,
      ...counts,
      organizations: world.organizations.length,
      users: world.users.length,
      teams: world.organizations.reduce((sum, organization) => sum + organization.teams.length, 0),
      elapsedMs: performance.now() - started,
    };
  } finally {
    await workspace.close();
  }
}

/** The tables a demo fills by the million, whose foreign keys a load into a new store checks once. */
const BULK_TABLES = ['scans', 'timelines', 'violations'] as const;

async function hasScans(db: Db): Promise<boolean> {
  return (await db.selectFrom('scans').select('id').limit(1).executeTakeFirst()) !== undefined;
}

/** Where a batch's scans and violations go: their tables, or a load's (withLoadTables). */
type LoadTables = Record<'scans' | 'violations', string>;

interface Written {
  timelineEntries: number;
  violations: number;
}

/**
 * One batch of scans with their timelines and violations, through compile-once multi-row
 * inserts; parents before children, since foreign keys are checked row by row. A push answers
 * a promise only where the dialect writes asynchronously (see BulkInserter).
 */
async function insertBatch(
  db: Db,
  trx: Executor,
  batch: readonly DemoScan[],
  chunkRows: number,
  into: LoadTables = { scans: 'scans', violations: 'violations' },
): Promise<Written> {
  await relaxTransaction(trx);
  const scans = new BulkInserter(db, trx, 'scans', SCAN_SAMPLE, chunkRows, into.scans);
  const timelines = timelinesInserter(db, trx, chunkRows);
  const entries = timelineInserter(db, trx, chunkRows);
  const findings = new BulkInserter(db, trx, 'violations', VIOLATION_SAMPLE, chunkRows, into.violations);
  const changeSeq = await nextChangeSeq(trx);
  for (const s of batch) {
    const written = scans.push(
      s.id,
      s.created_at,
      s.tool,
      s.action,
      s.tokens,
      s.status,
      'submitted',
      s.organization_id,
      s.submitted_by,
      s.token_breakdown,
      s.timeline.length,
      s.violations.length,
      s.worst_severity,
      changeSeq,
    );
    if (written) await written;
  }
  await scans.flush();
  const withEntries = batch.filter((s) => s.timeline.length > 0);
  const ids = await newTimelineIds(trx, withEntries.length);
  for (let i = 0; i < withEntries.length; i++) {
    const written = timelines.push(ids[i]!, withEntries[i]!.id);
    if (written) await written;
  }
  await timelines.flush();
  for (let i = 0; i < withEntries.length; i++) {
    const timeline = withEntries[i]!.timeline;
    for (let seq = 0; seq < timeline.length; seq++) {
      const entry = timeline[seq]!;
      const written = entries.push(ids[i]!, seq, entry.timestamp, entry.action, entry.tokens);
      if (written) await written;
    }
  }
  await entries.flush();
  for (const s of batch) {
    for (const v of s.violations) {
      const written = findings.push(v.id, s.id, v.seq, v.rule, v.severity, v.message, v.timeline_index);
      if (written) await written;
    }
  }
  await findings.flush();
  return { timelineEntries: entries.rows, violations: findings.rows };
}

/** People, organizations, memberships, teams and policies, through the ordinary repositories. */
async function insertWorld(db: Db, world: DemoWorld): Promise<void> {
  const first = world.organizations[0];
  if (first && (await db.selectFrom('organizations').select('id').where('id', '=', first.id).executeTakeFirst())) {
    throw new WorkspaceError(
      'this data directory already holds the demo data of this seed and time; use another --seed or --now, or a new --data-dir',
    );
  }
  await inTransaction(db, async (trx) => {
    for (const user of world.users) await insertUser(trx, { ...user, is_workspace_owner: 0 });
    for (const organization of world.organizations) {
      const { id, name, plan, created_at } = organization;
      await insertOrganization(trx, { id, name, plan, created_at });
      for (const member of organization.members) await upsertMembership(trx, { organization_id: id, ...member });
      await savePolicy(trx, id, organization.policy, created_at);
      for (const team of organization.teams) {
        await insertTeam(trx, {
          id: team.id,
          organization_id: id,
          name: team.name,
          name_key: teamNameKey(team.name),
          created_at: team.created_at,
        });
        for (const member of team.members) await insertTeamMember(trx, { team_id: team.id, ...member });
      }
    }
  });
}
