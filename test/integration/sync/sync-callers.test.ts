/**
 * A run belongs to no caller: one that disconnects after the first line leaves it running, and a
 * caller that comes later joins it and reads the same summary, saved on the remote.
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../../fixtures/fake-upstream/fake-upstream';
import { addRemote, startServed, syncNow, type ServedContext } from '../../helpers/sync-world';

const DOWNLOAD = 'GET /v1/scans/:scan_id/evidence/download';

describe('callers of a sync', () => {
  let upstream: FakeUpstream;
  let laptop: ServedContext;

  beforeAll(async () => {
    upstream = await startFakeUpstream({ scans: [{ id: 'u1' }, { id: 'u2' }] });
    laptop = await startServed();
    await addRemote(laptop, { name: 'up', url: upstream.url, token: upstream.token });
  });
  afterAll(async () => {
    await laptop?.close();
    await upstream?.close();
  });

  it('goes on when its caller leaves, and a later caller joins it', async () => {
    const release = upstream.hold(DOWNLOAD);
    // the caller reads the first line, then goes away (its connection destroyed)
    const first = await new Promise<string>((resolve, reject) => {
      const call = request(
        `${laptop.url}/v1/remotes/up/sync`,
        { method: 'POST', headers: { authorization: `Bearer ${laptop.owner.token}` } },
        (response) => {
          expect(response.statusCode).toBe(200);
          response.setEncoding('utf8').once('data', (chunk: string) => {
            call.destroy();
            resolve(chunk);
          });
        },
      );
      call.on('error', () => undefined);
      call.once('error', reject);
      call.end();
    });
    expect(JSON.parse(first.split('\n')[0]!)).toMatchObject({ type: 'progress' });
    await upstream.whenRequested(DOWNLOAD);
    const joined = syncNow(laptop, 'up');
    release();
    const { summary, events } = await joined;
    expect(events[0]).toMatchObject({ type: 'progress', phase: 'pull' });
    expect(summary).toMatchObject({ outcome: 'done', pulled: { new: 2 } });
    const saved = await laptop.db
      .selectFrom('remotes')
      .select('last_sync')
      .where('name', '=', 'up')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(saved.last_sync!)).toEqual(summary);
  });
});
