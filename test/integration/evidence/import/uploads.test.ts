import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ImportRouteLimits } from '../../../../src/main/evidence/import/import-limits';
import { startServer, type RunningServer } from '../../../../src/main/server/listen';
import { createUser } from '../../../../src/main/users/users.service';
import { openWorkspace } from '../../../../src/main/workspace/workspace';
import { dropTestDatabase, testDatabaseFor } from '../../../helpers/test-database';

// What an upload may hold on a real socket: a client that sends a little and then nothing is
// ended and its temp file removed, and imports under way are capped per user and in all.

interface Harness {
  server: RunningServer;
  port: number;
  spoolDir: string;
  token: (name: string) => Promise<string>;
  close(): Promise<void>;
}

async function startHarness(limits: Partial<ImportRouteLimits>): Promise<Harness> {
  const dataDir = mkdtempSync(join(tmpdir(), 'scandesk-uploads-'));
  const spoolDir = mkdtempSync(join(tmpdir(), 'scandesk-spool-'));
  const workspace = await openWorkspace(dataDir, { database: await testDatabaseFor(dataDir) });
  const server = await startServer({
    workspace,
    port: 0,
    host: '127.0.0.1',
    importLimits: { spoolDir, ...limits },
  });
  return {
    server,
    port: Number(new URL(server.url).port),
    spoolDir,
    token: async (name) => (await createUser(workspace.db, name)).token,
    async close() {
      await server.close();
      await dropTestDatabase(dataDir);
      rmSync(dataDir, { recursive: true, force: true });
      rmSync(spoolDir, { recursive: true, force: true });
    },
  };
}

/** An upload that announces `length` bytes and sends `sent` of them, then waits; the socket stays open. */
function startUpload(
  port: number,
  token: string,
  sent: Buffer,
  length = 1000,
): { socket: Socket; answer: Promise<string> } {
  const socket = connect(port, '127.0.0.1');
  socket.write(
    `POST /v1/evidence/imports HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${token}\r\n` +
      `Content-Type: application/zip\r\nContent-Length: ${length}\r\nConnection: close\r\n\r\n`,
  );
  socket.write(sent);
  let received = '';
  socket.setEncoding('utf8').on('data', (chunk: string) => (received += chunk));
  const answer = new Promise<string>((resolve) => socket.once('close', () => resolve(received)));
  socket.on('error', () => undefined);
  return { socket, answer };
}

const spooled = (dir: string): string[] => readdirSync(dir).filter((name) => name.startsWith('scandesk-import-'));

async function until(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function post(harness: Harness, token: string, body: Buffer): Promise<Response> {
  return fetch(`${harness.server.url}/v1/evidence/imports`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/zip' },
    body: new Uint8Array(body),
  });
}

describe('evidence uploads that stall', () => {
  let harness: Harness;
  let token: string;

  beforeAll(async () => {
    harness = await startHarness({ bodyIdleMs: 300 });
    token = await harness.token('slow');
  });

  afterAll(() => harness?.close());

  it('ends an upload that sends 2 bytes and then nothing, and removes its temp file', async () => {
    const started = Date.now();
    const { answer } = startUpload(harness.port, token, Buffer.from('PK'));
    await until(() => spooled(harness.spoolDir).length === 1);
    const text = await answer;
    expect(text).toMatch(/^HTTP\/1\.1 408 /);
    expect(JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4))).toEqual({
      error: {
        status: 408,
        code: 'request_timeout',
        message: 'the upload sent nothing for 0.3 s',
        details: [{ message: 'an upload may pause for at most 300 ms' }],
      },
    });
    expect(Date.now() - started).toBeLessThan(5000);
    await until(() => spooled(harness.spoolDir).length === 0);
  });

  it('removes the temp file of an upload whose client goes away', async () => {
    const { socket, answer } = startUpload(harness.port, token, Buffer.from('PK'));
    await until(() => spooled(harness.spoolDir).length === 1);
    socket.destroy();
    await answer;
    await until(() => spooled(harness.spoolDir).length === 0);
  });

  it('lets an upload that keeps sending take longer than the idle limit', async () => {
    const { socket, answer } = startUpload(harness.port, token, Buffer.from('PK'), 10);
    for (const byte of 'abcdefgh') {
      await new Promise((resolve) => setTimeout(resolve, 100));
      socket.write(byte);
    }
    // 800 ms in all, never 300 without a byte: judged as a package (not one), not cut off.
    expect(await answer).toMatch(/^HTTP\/1\.1 400 [^]*"invalid_package"/);
  });
});

describe('imports under way at once', () => {
  let harness: Harness;

  beforeAll(async () => {
    harness = await startHarness({ bodyIdleMs: 20_000, slots: { perUser: 2, total: 3 } });
  });

  afterAll(() => harness?.close());

  it('refuses a third import of one user and a fourth in all with 429 and Retry-After, before reading the body', async () => {
    const [alice, bob, carol] = await Promise.all(['alice', 'bob', 'carol'].map((name) => harness.token(name)));
    const held = [
      startUpload(harness.port, alice!, Buffer.from('PK')),
      startUpload(harness.port, alice!, Buffer.from('PK')),
    ];
    await until(() => spooled(harness.spoolDir).length === 2);

    const mine = await post(harness, alice!, Buffer.from('PK'));
    expect(mine.status).toBe(429);
    expect(mine.headers.get('retry-after')).toBe('5');
    expect(await mine.json()).toEqual({
      error: {
        status: 429,
        code: 'too_many_requests',
        message: expect.stringMatching(/one user/) as string,
        details: [{ message: 'at most 2 imports per user at once' }],
      },
    });
    // Refused before its body was spooled: still only the two held uploads on disk.
    expect(spooled(harness.spoolDir)).toHaveLength(2);

    held.push(startUpload(harness.port, bob!, Buffer.from('PK')));
    await until(() => spooled(harness.spoolDir).length === 3);
    const full = await post(harness, carol!, Buffer.from('PK'));
    expect(full.status).toBe(429);
    expect(((await full.json()) as { error: { details: unknown } }).error.details).toEqual([
      { message: 'at most 3 imports at once' },
    ]);

    // A client that goes away gives its slot back: the next import is judged on its content.
    held[0]!.socket.destroy();
    await held[0]!.answer;
    await until(() => spooled(harness.spoolDir).length === 2);
    const judged = await post(harness, carol!, Buffer.from('PK'));
    expect(judged.status).toBe(400);
    expect(((await judged.json()) as { error: { code: string } }).error.code).toBe('invalid_package');

    for (const upload of held) upload.socket.destroy();
    await Promise.all(held.map((upload) => upload.answer));
    await until(() => spooled(harness.spoolDir).length === 0);
    // Every slot was given back once: alice may import twice again at once.
    const again = await Promise.all([
      post(harness, alice!, Buffer.from('PK')),
      post(harness, alice!, Buffer.from('PK')),
    ]);
    expect(again.map((response) => response.status)).toEqual([400, 400]);
  });
});
