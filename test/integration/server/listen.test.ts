import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_REQUEST_TIMEOUTS, startServer, type RunningServer } from '../../../src/main/server/listen';
import { openWorkspace } from '../../../src/main/workspace/workspace';
import { dropTestDatabase, testDatabaseFor } from '../../helpers/test-database';

// A client that starts a request and never finishes it is answered 408 and disconnected,
// whatever the route (Node's own limits, which are off under Fastify unless set).

/** Sends `head` (and nothing more) and resolves what came back once the server closes, with the time taken. */
function halfRequest(port: number, head: string): Promise<{ answer: string; ms: number }> {
  const started = Date.now();
  const socket = connect(port, '127.0.0.1');
  socket.write(head);
  let answer = '';
  socket.setEncoding('utf8').on('data', (chunk: string) => (answer += chunk));
  socket.on('error', () => undefined);
  return new Promise((resolve) => socket.once('close', () => resolve({ answer, ms: Date.now() - started })));
}

describe('server request timeouts', () => {
  let dataDir: string;
  let server: RunningServer;
  let port: number;
  let token: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'scandesk-listen-'));
    const workspace = await openWorkspace(dataDir, { database: await testDatabaseFor(dataDir) });
    token = workspace.createdToken!;
    server = await startServer({
      workspace,
      port: 0,
      host: '127.0.0.1',
      timeouts: { headersMs: 400, requestMs: 800, checkEveryMs: 50 },
    });
    port = Number(new URL(server.url).port);
  });

  afterAll(async () => {
    await server?.close();
    await dropTestDatabase(dataDir);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('ends a request whose headers never end', async () => {
    const { answer, ms } = await halfRequest(port, `GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n`);
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(ms).toBeLessThan(3000);
  });

  it('ends a JSON request whose body stops coming', async () => {
    const { answer, ms } = await halfRequest(
      port,
      `POST /v1/scans HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${token}\r\n` +
        `Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"`,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(ms).toBeGreaterThanOrEqual(700);
    expect(ms).toBeLessThan(3000);
  });

  it('has limits by default: headers in 30 s, a whole request in 10 minutes', async () => {
    const otherDir = mkdtempSync(join(tmpdir(), 'scandesk-listen-'));
    const workspace = await openWorkspace(otherDir, { database: await testDatabaseFor(otherDir) });
    const plain = await startServer({ workspace, port: 0, host: '127.0.0.1' });
    try {
      expect(DEFAULT_REQUEST_TIMEOUTS).toEqual({ headersMs: 30_000, requestMs: 600_000, checkEveryMs: 5000 });
      expect(plain.app.server.headersTimeout).toBe(30_000);
      expect(plain.app.server.requestTimeout).toBe(600_000);
    } finally {
      await plain.close();
      await dropTestDatabase(otherDir);
      rmSync(otherDir, { recursive: true, force: true });
    }
  });
});
