import { openSqlite, wrapSqlite } from '../db/connection';
import type { Db } from '../db/database';
import { insertOrganization, upsertMembership } from '../organizations/organizations.repository';
import { databaseFile } from '../workspace/data-dir';
import { savePolicy } from '../policies/policies.repository';
import { insertTeam, insertTeamMember, teamNameKey } from '../teams/teams.repository';
import { findWorkspaceOwner, insertUser } from '../users/users.repository';
import { WorkspaceError, openWorkspace } from '../workspace/workspace';
import { BulkInserter, relaxForBulkLoad, SCAN_SAMPLE, VIOLATION_SAMPLE } from '../db/bulk-insert';
import { timelineInserter } from '../evidence/evidence.repository';
import { ScanGenerator, createWorld, type DemoScan, type DemoWorld } from './generate';
import { Random } from './random';

export interface DemoOptions {
  dataDir: string;
  scans: number;
  seed: number;
  /** Epoch ms: scans fall in the 90 days before it. */
  now: number;
  /** `SCANDESK_TOKEN` when the data directory is new, as for `serve`. */
  initialToken?: string | undefined;
  /** Scans per transaction. */
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
const DEFAULT_CHUNK = 100;

/**
 * Fills a data directory (new or existing) with deterministic demo data: organizations, people,
 * teams and policies, then `scans` scans with timelines and the violations the policy engine
 * finds, loaded in large transactions through compile-once multi-row inserts.
 */
export async function runDemo(options: DemoOptions): Promise<DemoSummary> {
  const started = performance.now();
  // The workspace does what every start does (migrations, the owner and its token file); the
  // load then uses its own connection, whose raw handle it needs.
  const workspace = await openWorkspace(options.dataDir, { initialToken: options.initialToken });
  const createdToken = workspace.createdToken !== null;
  let ownerId: string;
  try {
    const owner = await findWorkspaceOwner(workspace.db);
    if (!owner) throw new WorkspaceError('the data directory has no workspace owner');
    ownerId = owner.id;
  } finally {
    await workspace.close();
  }

  const sqlite = openSqlite(databaseFile(options.dataDir));
  const db = wrapSqlite(sqlite);
  try {
    const random = new Random(options.seed);
    const world = createWorld(random, ownerId, options.now);
    await insertWorld(db, world);

    const generator = new ScanGenerator(world, random, options.scans);
    const restore = relaxForBulkLoad(sqlite);
    let timelineEntries = 0;
    let violations = 0;
    try {
      const chunkRows = options.chunkRows ?? DEFAULT_CHUNK;
      const scans = new BulkInserter(sqlite, db, 'scans', SCAN_SAMPLE, chunkRows);
      const entries = timelineInserter(sqlite, db, chunkRows);
      const findings = new BulkInserter(sqlite, db, 'violations', VIOLATION_SAMPLE, chunkRows);
      // Parents before children within a batch: foreign keys are checked row by row.
      const insertBatch = sqlite.transaction((batch: readonly DemoScan[]) => {
        for (const s of batch) {
          scans.push(
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
          );
        }
        scans.flush();
        for (const s of batch) {
          const timeline = s.timeline;
          for (let seq = 0; seq < timeline.length; seq++) {
            const entry = timeline[seq]!;
            entries.push(s.id, seq, entry.timestamp, entry.action, entry.tokens);
          }
        }
        entries.flush();
        for (const s of batch) {
          for (const v of s.violations)
            findings.push(v.id, s.id, v.seq, v.rule, v.severity, v.message, v.timeline_index);
        }
        findings.flush();
      });

      const batchSize = options.batchSize ?? DEFAULT_BATCH;
      const batch: DemoScan[] = [];
      let done = 0;
      for (let scan = generator.next(); scan; scan = generator.next()) {
        batch.push(scan);
        if (batch.length === batchSize || done + batch.length === options.scans) {
          insertBatch(batch);
          done += batch.length;
          batch.length = 0;
          options.onProgress?.(done, options.scans);
        }
      }
      timelineEntries = entries.rows;
      violations = findings.rows;
    } finally {
      restore();
    }
    return {
      dataDir: options.dataDir,
      createdToken,
      scans: options.scans,
      timelineEntries,
      violations,
      organizations: world.organizations.length,
      users: world.users.length,
      teams: world.organizations.reduce((sum, organization) => sum + organization.teams.length, 0),
      elapsedMs: performance.now() - started,
    };
  } finally {
    await db.destroy();
  }
}

/** People, organizations, memberships, teams and policies, through the ordinary repositories. */
async function insertWorld(db: Db, world: DemoWorld): Promise<void> {
  const first = world.organizations[0];
  if (first && (await db.selectFrom('organizations').select('id').where('id', '=', first.id).executeTakeFirst())) {
    throw new WorkspaceError(
      'this data directory already holds the demo data of this seed and time; use another --seed or --now, or a new --data-dir',
    );
  }
  await db.transaction().execute(async (trx) => {
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
