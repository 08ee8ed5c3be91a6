import { createServer, type IncomingMessage, type Server } from 'node:http';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../../src/cli/client';
import { ServerError, TransferError } from '../../../src/cli/client-errors';

const MiB = 1024 * 1024;

/** Counts what arrives; answers like the import route, or with its error shape for `/refuse`. */
function startServer(): Promise<{ server: Server; url: string; seen: { headers: IncomingMessage['headers'] }[] }> {
  const seen: { headers: IncomingMessage['headers'] }[] = [];
  const server = createServer((request, response) => {
    seen.push({ headers: request.headers });
    let bytes = 0;
    request.on('data', (chunk: Buffer) => (bytes += chunk.length));
    request.on('end', () => {
      if (request.url === '/refuse') {
        response.writeHead(400, { 'Content-Type': 'application/json' });
        response.end(
          JSON.stringify({
            error: { status: 400, code: 'invalid_package', message: 'bad', details: [{ entry: 'x', message: 'bad' }] },
          }),
        );
        return;
      }
      response.writeHead(201, { 'Content-Type': 'application/json' });
      response.end(JSON.stringify({ bytes }));
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      resolve({ server, url: `http://127.0.0.1:${port}`, seen });
    }),
  );
}

/** `total` bytes in 64 KiB chunks, each a fresh buffer, as a file read stream delivers them. */
function generated(total: number): Readable {
  let produced = 0;
  return Readable.from(
    (function* () {
      while (produced < total) {
        const size = Math.min(64 * 1024, total - produced);
        produced += size;
        yield Buffer.alloc(size, 1);
      }
    })(),
  );
}

describe('ApiClient.upload', () => {
  let server: Server;
  let url: string;
  let seen: { headers: IncomingMessage['headers'] }[];

  beforeAll(async () => {
    ({ server, url, seen } = await startServer());
  });

  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('streams the body with its content type, length and token, and parses the JSON answer', async () => {
    const client = new ApiClient({ url, token: 'sdt_test' });
    const result = await client.upload<{ bytes: number }>(
      'POST',
      '/in',
      generated(3 * MiB),
      'application/zip',
      3 * MiB,
    );
    expect(result).toEqual({ bytes: 3 * MiB });
    expect(seen.at(-1)?.headers).toMatchObject({
      'content-type': 'application/zip',
      'content-length': String(3 * MiB),
      authorization: 'Bearer sdt_test',
    });
  });

  it('never holds the whole body in memory', async () => {
    // Regression: with fetch's default redirect mode the request body was teed and the unread
    // branch kept every byte; 256 MiB then cost over 256 MiB of buffers.
    const client = new ApiClient({ url, token: 'sdt_test' });
    const total = 256 * MiB;
    let peak = 0;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().arrayBuffers)), 5);
    try {
      const result = await client.upload<{ bytes: number }>('POST', '/in', generated(total), 'application/zip', total);
      expect(result.bytes).toBe(total);
    } finally {
      clearInterval(sampler);
    }
    expect(peak).toBeLessThan(128 * MiB);
  });

  it('throws the server’s error shape as a ServerError', async () => {
    const client = new ApiClient({ url, token: 'sdt_test' });
    const error = await client.upload('POST', '/refuse', generated(1000), 'application/zip').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServerError);
    expect(error).toMatchObject({ status: 400, code: 'invalid_package', details: [{ entry: 'x', message: 'bad' }] });
  });

  it('a body that fails mid-upload is a TransferError about this request, not an unreachable server', async () => {
    const client = new ApiClient({ url, token: 'sdt_test' });
    const failing = Readable.from(
      (async function* () {
        yield Buffer.alloc(1024);
        throw Object.assign(new Error('EIO: i/o error, read'), { code: 'EIO' });
      })(),
    );
    const error = await client.upload('POST', '/in', failing, 'application/zip', 4096).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransferError);
    expect((error as Error).message).toMatch(/^the request to http:\/\/127\.0\.0\.1:\d+ failed \(.*EIO.*\)$/);
  });
});
