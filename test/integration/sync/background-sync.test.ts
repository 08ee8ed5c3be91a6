/**
 * Background sync: a pass syncs each remote with background sync on that is due, and leaves the
 * others; a remote synced a moment ago is not due again. Passes are called here, not timed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBackgroundSync, type BackgroundSync } from '../../../src/main/sync/background-sync';
import { submitScan } from '../../helpers/scan-fixtures';
import { addRemote, startServed, type ServedContext } from '../../helpers/sync-world';
import { createTestContext, type TestContext } from '../../helpers/test-app';

describe('background sync', () => {
  let team: ServedContext;
  let laptop: TestContext;
  let background: BackgroundSync;

  const lastSync = async (name: string) =>
    laptop.db
      .selectFrom('remotes')
      .select(['last_sync_at', 'last_sync'])
      .where('name', '=', name)
      .executeTakeFirstOrThrow();

  beforeAll(async () => {
    team = await startServed();
    await submitScan(team, { tool: 'vim', action: 'edit', tokens: 1 });
    laptop = await createTestContext();
    await addRemote(laptop, { name: 'on', url: team.url, token: team.owner.token });
    await addRemote(laptop, { name: 'off', url: team.url, token: team.owner.token, background: false });
    // a tick far away: the test calls each pass itself
    background = startBackgroundSync({ db: laptop.db, dataDir: laptop.dataDir }, 3_600_000);
  });
  afterAll(async () => {
    background?.stop();
    await laptop?.close();
    await team?.close();
  });

  it('syncs the remotes that are due, and only those', async () => {
    await background.tick();
    const on = await lastSync('on');
    expect(on.last_sync_at).not.toBeNull();
    expect(JSON.parse(on.last_sync!)).toMatchObject({ remote: 'on', outcome: 'done', pulled: { new: 1 } });
    expect((await lastSync('off')).last_sync_at).toBeNull();

    await background.tick();
    expect((await lastSync('on')).last_sync_at).toBe(on.last_sync_at);
  });
});
