import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Remote } from '../../../../src/shared/api/remotes';
import { startServer, type RunningServer } from '../../../../src/main/server/listen';
import {
  startBackgroundSync,
  type BackgroundLog,
  type BackgroundSync,
} from '../../../../src/main/sync/background/background-sync';
import { createRemote } from '../../../../src/main/sync/remotes/remotes.service';
import { findWorkspaceOwner } from '../../../../src/main/users/users.repository';
import { openWorkspace } from '../../../../src/main/workspace/workspace';
import { createTestContext, type TestContext } from '../../../helpers/test-app';
import { dropTestDatabase, testDatabaseFor } from '../../../helpers/test-database';

// Background sync with the real run: a team server on a socket, a laptop store whose scheduler
// pulls from it without being asked. The schedule's rules are next-sync.test.ts's; here, that the
// loop reads the remotes, runs the one due through the store's runs, and logs it in one line.

interface LogLine {
  level: 'info' | 'warn';
  fields: Record<string, unknown>;
  message: string;
}

/** A log that remembers its lines and tells a waiting test about each. */
function recordingLog(): BackgroundLog & { lines: LogLine[]; next(): Promise<LogLine> } {
  const lines: LogLine[] = [];
  const waiting: Array<(line: LogLine) => void> = [];
  const add = (line: LogLine): void => {
    lines.push(line);
    waiting.shift()?.(line);
  };
  let read = 0;
  return {
    lines,
    info: (fields, message) => add({ level: 'info', fields, message }),
    warn: (fields, message) => add({ level: 'warn', fields, message }),
    next: () =>
      read < lines.length
        ? Promise.resolve(lines[read++]!)
        : new Promise((resolve) => waiting.push((line) => (read++, resolve(line)))),
  };
}

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  return typeof address === 'object' && address ? address.port : 0;
}

describe('background sync', () => {
  let teamDir: string;
  let team: RunningServer;
  let teamToken: string;
  let laptop: TestContext | undefined;
  let background: BackgroundSync | undefined;

  beforeAll(async () => {
    teamDir = mkdtempSync(join(tmpdir(), 'scandesk-background-team-'));
    const workspace = await openWorkspace(teamDir, { database: await testDatabaseFor(teamDir) });
    teamToken = workspace.createdToken!;
    team = await startServer({ workspace, port: 0, host: '127.0.0.1' });
    for (const tokens of [10, 20]) {
      const response = await fetch(`${team.url}/v1/scans`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${teamToken}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ tool: 'background-test', action: 'edit', tokens }),
      });
      expect(response.status).toBe(201);
    }
  });

  afterEach(async () => {
    background?.stop();
    await background?.settled();
    background = undefined;
    await laptop?.close();
    laptop = undefined;
  });

  afterAll(async () => {
    await team?.close();
    await dropTestDatabase(teamDir);
    rmSync(teamDir, { recursive: true, force: true });
  });

  async function addRemote(body: Record<string, unknown>): Promise<Remote> {
    const response = await laptop!.request({ method: 'POST', url: '/v1/remotes', payload: body });
    expect(response.statusCode).toBe(201);
    return response.json<Remote>();
  }

  async function remote(name: string): Promise<Remote> {
    return (await laptop!.request({ method: 'GET', url: `/v1/remotes/${name}` })).json<Remote>();
  }

  it('pulls from a background remote unasked, leaves one with background off alone, and logs the run in one line without the token', async () => {
    laptop = await createTestContext();
    await addRemote({ name: 'quiet', url: team.url, token: teamToken, background: false });
    await addRemote({ name: 'team', url: team.url, token: teamToken });
    const log = recordingLog();
    background = startBackgroundSync({ db: laptop.db, dataDir: laptop.dataDir, log, pollMs: 20 });

    const line = await log.next();
    expect(line).toMatchObject({
      level: 'info',
      message: 'background sync of team: done, 2 new, 0 changed, 0 pushed, 0 waiting',
      fields: { remote: 'team', outcome: 'done', pulled_new: 2 },
    });
    expect(JSON.stringify(log.lines)).not.toContain(teamToken);
    const pulled = await laptop.request({ method: 'GET', url: '/v1/scans?tool=background-test' });
    expect(pulled.json<{ total: number }>().total).toBe(2);
    expect((await remote('team')).last_sync).toMatchObject({ outcome: 'done', pulled: { new: 2 } });
    expect((await remote('quiet')).last_sync_at).toBeNull();
  });

  it('notices a remote added while it runs, and says in its line why a remote could not be reached', async () => {
    laptop = await createTestContext();
    const log = recordingLog();
    background = startBackgroundSync({ db: laptop.db, dataDir: laptop.dataDir, log, pollMs: 20 });
    const port = await closedPort();
    await addRemote({ name: 'away', url: `http://127.0.0.1:${port}`, token: 'sdt_away' });

    const line = await log.next();
    expect(line.level).toBe('warn');
    expect(line.fields).toMatchObject({ remote: 'away', outcome: 'unreachable' });
    expect(line.message).toContain(`background sync of away: unreachable`);
    expect(line.message).toContain(`cannot reach 127.0.0.1:${port}`);
    expect(JSON.stringify(log.lines)).not.toContain('sdt_away');
    expect((await remote('away')).last_sync).toMatchObject({ outcome: 'unreachable' });
  });

  it('tries a remote it could not reach again at once when nudged, not after its 30 s retry', async () => {
    laptop = await createTestContext();
    const log = recordingLog();
    const port = await closedPort();
    await addRemote({ name: 'away', url: `http://127.0.0.1:${port}`, token: 'sdt_away' });
    background = startBackgroundSync({ db: laptop.db, dataDir: laptop.dataDir, log, pollMs: 20 });
    expect((await log.next()).fields).toMatchObject({ remote: 'away', outcome: 'unreachable' });
    // The network is back (the desktop shell says so): the remote is tried now.
    background.nudge();
    expect((await log.next()).fields).toMatchObject({ remote: 'away', outcome: 'unreachable' });
    expect(log.lines).toHaveLength(2);
  });

  it('runs while a server started with it runs, through its logger, and the server still closes', async () => {
    const laptopDir = mkdtempSync(join(tmpdir(), 'scandesk-background-laptop-'));
    const workspace = await openWorkspace(laptopDir, { database: await testDatabaseFor(laptopDir) });
    const owner = await findWorkspaceOwner(workspace.db);
    await createRemote(workspace.db, laptopDir, owner!.id, { name: 'team', url: team.url, token: teamToken });
    const lines: string[] = [];
    let heard: (line: string) => void = () => undefined;
    const ran = new Promise<string>((resolve) => (heard = resolve));
    const log = {
      level: 'info',
      write(line: string) {
        lines.push(line);
        if (line.includes('background sync of team')) heard(line);
      },
    };
    const server = await startServer({ workspace, port: 0, host: '127.0.0.1', log, backgroundSync: true });
    try {
      const line = JSON.parse(await ran) as { level: number; msg: string; remote: string; outcome: string };
      expect(line).toMatchObject({ remote: 'team', outcome: 'done' });
      expect(line.msg).toMatch(/^background sync of team: done, \d+ new/);
      expect(lines.join('')).not.toContain(teamToken);
    } finally {
      await server.close();
      await dropTestDatabase(laptopDir);
      rmSync(laptopDir, { recursive: true, force: true });
    }
  });

  it('never keeps a process alive: one whose store closed exits while the schedule waits for a retry', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'scandesk-background-exit-'));
    try {
      const script = join(import.meta.dirname, '../../../fixtures/sync/background-then-close.ts');
      // On SQLite whatever the run's backend: the child has no test database of its own.
      const output = execFileSync(process.execPath, ['--import', 'tsx', script, dataDir], {
        encoding: 'utf8',
        timeout: 20_000,
        env: { ...process.env, SCANDESK_DATABASE_URL: '' },
      });
      expect(output).toMatch(/^background sync of away: unreachable.*\nexited\n$/s);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
