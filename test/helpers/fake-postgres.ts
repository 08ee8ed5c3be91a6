import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

/**
 * A loopback server that speaks just enough of the PostgreSQL protocol to learn what password a
 * client sends: it asks for the password in clear text (as `password` authentication does),
 * records it, and refuses the login. The shared test cluster trusts every login, so it cannot
 * tell whether a password arrived at all.
 */
export interface FakePostgres {
  port: number;
  /** The passwords received, in order. */
  passwords: string[];
  /** Resolves with the next password received. */
  nextPassword(): Promise<string>;
  /** While true, a client's password is recorded but not answered: the client waits. */
  hold: boolean;
  close(): Promise<void>;
}

function errorResponse(message: string): Buffer {
  const fields = Buffer.from(`SFATAL\0C28P01\0M${message}\0\0`, 'utf8');
  const head = Buffer.alloc(5);
  head.write('E', 0);
  head.writeInt32BE(4 + fields.length, 1);
  return Buffer.concat([head, fields]);
}

export async function startFakePostgres(): Promise<FakePostgres> {
  const passwords: string[] = [];
  const waiting: ((password: string) => void)[] = [];
  const sockets = new Set<Socket>();
  const fake: FakePostgres = {
    port: 0,
    passwords,
    hold: false,
    nextPassword: () => new Promise((resolve) => waiting.push(resolve)),
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    let buffer = Buffer.alloc(0);
    let started = false;
    socket.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      for (;;) {
        if (!started) {
          if (buffer.length < 8) return;
          const length = buffer.readInt32BE(0);
          if (buffer.length < length) return;
          const code = buffer.readInt32BE(4);
          buffer = buffer.subarray(length);
          // SSLRequest: not here.
          if (code === 80877103) {
            socket.write('N');
            continue;
          }
          started = true;
          const ask = Buffer.alloc(9);
          ask.write('R', 0);
          ask.writeInt32BE(8, 1);
          ask.writeInt32BE(3, 5);
          socket.write(ask);
          continue;
        }
        if (buffer.length < 5) return;
        const length = buffer.readInt32BE(1);
        if (buffer.length < 1 + length) return;
        const type = String.fromCharCode(buffer[0]!);
        const body = buffer.subarray(5, 1 + length);
        buffer = buffer.subarray(1 + length);
        if (type !== 'p') continue;
        const password = body.subarray(0, body.indexOf(0)).toString('utf8');
        passwords.push(password);
        waiting.shift()?.(password);
        if (!fake.hold) socket.end(errorResponse('password authentication failed for user "me"'));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.port = (server.address() as AddressInfo).port;
  return fake;
}
