/**
 * The push queue: the remote user's own submits since push_since, in no organization or in one
 * mirrored from that remote, not yet acknowledged; never imported or pulled scans, another
 * user's, or scans of a local organization or another remote's. Paged oldest first.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  countQueued,
  markSending,
  queuedScans,
  recordAck,
  unansweredPushes,
} from '../../../src/main/sync/push/push-queue.repository';
import type { RemoteRow } from '../../../src/main/db/index';
import { createOrg, fixtureScanId, insertScans } from '../../helpers/scan-fixtures';
import { insertRemote } from '../../helpers/sync-fixtures';
import { createTestContext, type TestContext } from '../../helpers/test-app';

const T0 = Date.UTC(2026, 10, 20);
const MINUTE = 60_000;

describe('push queue', () => {
  let ctx: TestContext;
  let remote: RemoteRow;
  let other: RemoteRow;
  const expected: string[] = [];

  beforeAll(async () => {
    ctx = await createTestContext();
    const someone = await ctx.createUser('someone');
    remote = await insertRemote(ctx.db, { user_id: ctx.owner.id, push_since: T0 });
    other = await insertRemote(ctx.db, { user_id: ctx.owner.id, push_since: 0 });
    const local = await createOrg(ctx, 'Local');
    const mirrored = await createOrg(ctx, 'Mirrored');
    const elsewhere = await createOrg(ctx, 'Other remote');
    await ctx.db
      .updateTable('organizations')
      .set({ remote_id: remote.id, remote_org_id: 'r-org-1' })
      .where('id', '=', mirrored)
      .execute();
    await ctx.db
      .updateTable('organizations')
      .set({ remote_id: other.id, remote_org_id: 'r-org-1' })
      .where('id', '=', elsewhere)
      .execute();

    let n = 0;
    const scan = (minutes: number, values: { submitted_by?: string; organization_id?: string | null }) => ({
      id: fixtureScanId(n++),
      created_at: T0 + minutes * MINUTE,
      submitted_by: ctx.owner.id,
      ...values,
    });
    const queued = [
      scan(3, {}),
      scan(1, { organization_id: mirrored }),
      scan(0, {}), // at push_since exactly
      scan(1, {}), // same time as another: ordered by id
    ];
    const never = [
      scan(-1, {}), // before push_since
      scan(2, { organization_id: local }),
      scan(2, { organization_id: elsewhere }),
      scan(2, { submitted_by: someone.id }),
    ];
    const imported = scan(4, {});
    await insertScans(ctx.db, [...queued, ...never, imported]);
    await ctx.db.updateTable('scans').set({ source: 'imported' }).where('id', '=', imported.id).execute();
    expected.push(...queued.sort((a, b) => a.created_at - b.created_at || (a.id < b.id ? -1 : 1)).map((s) => s.id));
  });
  afterAll(async () => ctx?.close());

  it('holds what the remote should get, oldest first, with the remote organization ids', async () => {
    const scans = await queuedScans(ctx.db, remote, 100);
    expect(scans.map((s) => s.id)).toEqual(expected);
    expect(scans.map((s) => s.remote_org_id)).toEqual([null, 'r-org-1', null, null]);
    expect(await countQueued(ctx.db, remote)).toBe(expected.length);
  });

  it('pages by (created_at, id)', async () => {
    const seen: string[] = [];
    let after = null;
    for (;;) {
      const page = await queuedScans(ctx.db, remote, 1, after);
      if (page.length === 0) break;
      seen.push(page[0]!.id);
      after = { created_at: page[0]!.created_at, id: page[0]!.id };
    }
    expect(seen).toEqual(expected);
  });

  it('keeps a scan being sent queued until the remote acknowledges it', async () => {
    const [first, second] = expected;
    await markSending(ctx.db, remote.id, first!);
    await markSending(ctx.db, remote.id, second!);
    await markSending(ctx.db, remote.id, second!);
    expect(await unansweredPushes(ctx.db, remote.id)).toEqual([first, second].sort());
    expect(await countQueued(ctx.db, remote)).toBe(expected.length);
    expect((await queuedScans(ctx.db, remote, 10, null, [second!])).map((s) => s.id)).toEqual([second]);

    await recordAck(ctx.db, remote.id, first!, { remoteScanId: 'r-1', at: T0, violationCount: 2, worstSeverity: 3 });
    expect(await unansweredPushes(ctx.db, remote.id)).toEqual([second]);
    expect((await queuedScans(ctx.db, remote, 100)).map((s) => s.id)).toEqual(expected.slice(1));
    const row = await ctx.db
      .selectFrom('sync_pushes')
      .selectAll()
      .where('remote_id', '=', remote.id)
      .where('scan_id', '=', first!)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ remote_scan_id: 'r-1', remote_violation_count: 2, remote_worst_severity: 3 });
    // marking an acknowledged scan again changes nothing
    await markSending(ctx.db, remote.id, first!);
    expect(await unansweredPushes(ctx.db, remote.id)).toEqual([second]);
  });

  it('is per remote', async () => {
    // the other remote has no push_since bound and no mirrored organization of the first
    const ids = (await queuedScans(ctx.db, other, 100)).map((s) => s.id);
    // the other's: no push_since bound, its own mirror, not the first remote's; an ack there counts not here
    expect(ids).toHaveLength(5);
    expect(ids).toContain(expected[0]);
    expect(ids).not.toContain(expected[1]);
  });
});
