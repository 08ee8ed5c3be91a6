import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertTimeline } from '../../../../src/main/evidence/timeline/timeline-writes.repository';
import { writeEvidencePackage } from '../../../../src/main/evidence/export/package-writer';
import { findWorkspaceOwner } from '../../../../src/main/users/users.repository';
import { openWorkspace, type Workspace } from '../../../../src/main/workspace/workspace';

const SCAN = 'scan_long';
/** Ten of the writer's timeline chunks. */
const ENTRIES = 50_000;

describe('writeEvidencePackage', () => {
  let dir: string;
  let workspace: Workspace;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'scandesk-package-writer-'));
    workspace = await openWorkspace(dir);
    const db = workspace.db;
    const owner = (await findWorkspaceOwner(db))!;
    await db
      .insertInto('scans')
      .values({
        id: SCAN,
        created_at: 0,
        tool: 't',
        action: 'a',
        tokens: ENTRIES,
        status: 'completed',
        source: 'submitted',
        organization_id: null,
        submitted_by: owner.id,
        token_breakdown: '{}',
        request_count: ENTRIES,
        violation_count: 0,
        worst_severity: 0,
        change_seq: 0,
      })
      .execute();
    await insertTimeline(
      db,
      SCAN,
      Array.from({ length: ENTRIES }, (_, seq) => ({
        timestamp: 1_735_689_600_000 + seq * 997,
        action: `action ${seq % 5}`,
        tokens: 1,
      })),
    );
  });

  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('fails the stream, not the process, when the store goes away in the middle of a timeline', async () => {
    const db = workspace.db;
    const scan = await db.selectFrom('scans').selectAll().where('id', '=', SCAN).executeTakeFirstOrThrow();
    let writes = 0;
    const sink = new Writable({
      write(_chunk, _encoding, callback) {
        // By the fifth piece of output the small entries are written and the timeline is under way.
        // The sink takes nothing more until the store is closed: on a busy machine the writer
        // would otherwise read the rest of the timeline while the close is still under way.
        if (++writes === 5) workspace.close().then(() => callback(), callback);
        else callback();
      },
    });
    await expect(pipeline(writeEvidencePackage(db, [scan]), sink)).rejects.toThrow(/not open|destroyed/);
  });
});
