/**
 * A proxy on 127.0.0.1 that stands for the network between a laptop and a team server, and cuts
 * it: any request it is told to, at a byte offset of what the laptop sent (the team gets a request
 * cut short) or of what the team answered (the team did the work; the laptop gets part of the
 * answer, or none). It knows nothing of routes: it counts requests. A hook sees each request once
 * the team has it whole and once the team has answered, for a test that kills the team there.
 *
 * One request per client connection (`Connection: close` both ways), so that a request is the
 * bytes of one connection: the laptop's keep-alive pool opens a new one for the next.
 */
import { connect, createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export interface ProxiedRequest {
  /** 1, 2, … in the order requests came in since the proxy started. */
  n: number;
  method: string;
  /** The request target, query included. */
  path: string;
}

/** Where to cut: `fraction` of the request's bytes (head and body) or of the answer's (0: none of it). */
export interface Cut {
  /** The request to cut, by `n`. */
  at: number;
  side: 'request' | 'answer';
  /** In [0, 1). */
  fraction: number;
}

/** What a hook may say: `cut` drops the connection there (after `answered`: the answer never arrives). */
export type HookVerdict = 'cut' | undefined;

export type ProxyHook = (
  request: ProxiedRequest,
  stage: 'forwarded' | 'answered',
) => HookVerdict | Promise<HookVerdict>;

export interface CuttingProxy {
  url: string;
  /** Every request seen, in order. */
  readonly requests: readonly ProxiedRequest[];
  /** The cuts made, in order, with the byte offset each was made at. */
  readonly cuts: readonly (Cut & { request: ProxiedRequest; offset: number; of: number })[];
  /** Arms one cut (replacing any armed one that has not happened). */
  cut(plan: Cut | null): void;
  hook: ProxyHook | undefined;
  /** Changes a request's target on its way (as a gateway may), e.g. a smaller page than asked for. */
  rewrite: ((path: string) => string) | undefined;
  /** Points the proxy at another address (a team server restarted elsewhere). */
  retarget(url: string): void;
  close(): Promise<void>;
}

const HEAD_MAX = 64 * 1024;

interface ParsedRequest {
  method: string;
  path: string;
  version: string;
  headers: [string, string][];
  body: Buffer;
}

/** Reads one HTTP/1.1 request (Content-Length bodies only: what the sync's client sends). */
function readRequest(socket: Socket): Promise<ParsedRequest | null> {
  return new Promise((resolve) => {
    let buffered = Buffer.alloc(0);
    let head: Omit<ParsedRequest, 'body'> | undefined;
    let bodyAt = 0;
    let length = 0;
    const done = (value: ParsedRequest | null): void => {
      socket.off('data', onData);
      socket.off('end', onEnd);
      socket.off('error', onEnd);
      resolve(value);
    };
    const onEnd = (): void => done(null);
    const onData = (chunk: Buffer): void => {
      buffered = Buffer.concat([buffered, chunk]);
      if (!head) {
        const end = buffered.indexOf('\r\n\r\n');
        if (end === -1) {
          if (buffered.length > HEAD_MAX) done(null);
          return;
        }
        const [line, ...fields] = buffered.subarray(0, end).toString('latin1').split('\r\n');
        const [method, path, version] = (line ?? '').split(' ');
        const headers = fields.map((field): [string, string] => {
          const colon = field.indexOf(':');
          return [field.slice(0, colon).trim(), field.slice(colon + 1).trim()];
        });
        // Chunked request bodies are not read here: such a request is dropped, and the test fails loudly.
        if (headers.some(([name]) => name.toLowerCase() === 'transfer-encoding')) return done(null);
        length = Number(headers.find(([name]) => name.toLowerCase() === 'content-length')?.[1] ?? 0);
        head = { method: method ?? '', path: path ?? '', version: version ?? 'HTTP/1.1', headers };
        bodyAt = end + 4;
      }
      if (buffered.length - bodyAt >= length) done({ ...head, body: buffered.subarray(bodyAt, bodyAt + length) });
    };
    socket.on('data', onData);
    socket.once('end', onEnd);
    socket.once('error', onEnd);
  });
}

/** Writes `data`, then drops the connection (no more bytes either way). */
function writeAndDrop(socket: Socket, data: Buffer): void {
  if (data.length === 0) socket.destroy();
  else socket.write(data, () => socket.destroy());
}

export async function startCuttingProxy(upstream: string): Promise<CuttingProxy> {
  let target = new URL(upstream);
  const requests: ProxiedRequest[] = [];
  const cuts: (Cut & { request: ProxiedRequest; offset: number; of: number })[] = [];
  let armed: Cut | null = null;
  const sockets = new Set<Socket>();

  const proxy: CuttingProxy = {
    url: '',
    requests,
    cuts,
    hook: undefined,
    rewrite: undefined,
    cut(plan) {
      armed = plan;
    },
    retarget(url) {
      target = new URL(url);
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };

  async function serve(client: Socket): Promise<void> {
    const parsed = await readRequest(client);
    if (!parsed) return void client.destroy();
    const path = proxy.rewrite?.(parsed.path) ?? parsed.path;
    const request: ProxiedRequest = { n: requests.length + 1, method: parsed.method, path };
    requests.push(request);
    const plan = armed?.at === request.n ? armed : null;
    if (plan) armed = null;

    // As a reverse proxy sends it on: the team's own address as Host, one request per connection.
    const headers = parsed.headers.filter(([name]) => !['host', 'connection'].includes(name.toLowerCase()));
    const head = [
      `${parsed.method} ${path} ${parsed.version}`,
      `Host: ${target.host}`,
      'Connection: close',
      ...headers.map(([name, value]) => `${name}: ${value}`),
    ].join('\r\n');
    const raw = Buffer.concat([Buffer.from(`${head}\r\n\r\n`, 'latin1'), parsed.body]);

    const team = connect({ host: target.hostname, port: Number(target.port) });
    sockets.add(team);
    team.once('close', () => sockets.delete(team));
    const answer: Buffer[] = [];
    const ended = new Promise<void>((resolve) => {
      team.on('data', (chunk: Buffer) => answer.push(chunk));
      team.once('close', () => resolve());
      team.once('error', () => undefined);
    });

    if (plan?.side === 'request') {
      const offset = Math.floor(plan.fraction * raw.length);
      cuts.push({ ...plan, request, offset, of: raw.length });
      team.once('connect', () => writeAndDrop(team, raw.subarray(0, offset)));
      client.destroy();
      return;
    }
    const forwarded = new Promise<void>((resolve) => team.once('connect', () => team.write(raw, () => resolve())));
    await Promise.race([forwarded, ended]);
    if ((await proxy.hook?.(request, 'forwarded')) === 'cut') {
      team.destroy();
      client.destroy();
      return;
    }
    await ended;
    const whole = Buffer.concat(answer);
    if ((await proxy.hook?.(request, 'answered')) === 'cut') return void client.destroy();
    if (plan?.side === 'answer') {
      const offset = Math.floor(plan.fraction * whole.length);
      cuts.push({ ...plan, request, offset, of: whole.length });
      return writeAndDrop(client, whole.subarray(0, offset));
    }
    // The whole answer; from a team that died mid-answer, what came of it. Then the connection ends.
    client.end(whole);
  }

  const server: Server = createServer((client) => {
    sockets.add(client);
    client.once('close', () => sockets.delete(client));
    client.on('error', () => undefined);
    serve(client).catch(() => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return proxy;
}
