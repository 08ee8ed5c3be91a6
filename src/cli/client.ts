import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import {
  DEFAULT_HOST,
  DEFAULT_PORT,
  defaultDataDir,
  isIdentityProof,
  liveServerUrl,
  normalizeAddress,
  readServerKey,
  serverKeyFile,
  tokenFile,
  type SocketEnd,
} from '../main/cli-core';
import { ServerError, TransferError, UnreachableError } from './client-errors';
import { exchange, type Exchange } from './http-exchange';

// Re-exported: the error classes live apart so that index.ts can classify them without loading this file.
export { ServerError, TransferError, UnreachableError };

export interface ClientOptions {
  url: string;
  token: string;
  /**
   * The data directory the token was read from: the server must prove it holds that directory's
   * key before the token is sent (docs/security.md, Server identity). Absent for a token the user
   * gave (--token, SCANDESK_TOKEN), which goes where the user said.
   */
  tokenDataDir?: string;
}

export function resolveClientOptions(
  flags: { url?: string | undefined; token?: string | undefined },
  env = process.env,
): ClientOptions {
  const url = (flags.url ?? env.SCANDESK_URL ?? defaultUrl(env)).replace(/\/+$/, '');
  const token = flags.token ?? env.SCANDESK_TOKEN;
  if (token !== undefined) return { url, token };
  return { url, token: readDefaultToken(env), tokenDataDir: defaultDataDir(env) };
}

/**
 * A running desktop app's server (its server.json in the default data directory: its port is a
 * free one when 4790 was taken), else the default address.
 */
function defaultUrl(env: NodeJS.ProcessEnv): string {
  return liveServerUrl(defaultDataDir(env)) ?? `http://${DEFAULT_HOST}:${DEFAULT_PORT}`;
}

function readDefaultToken(env: NodeJS.ProcessEnv): string {
  const file = tokenFile(defaultDataDir(env));
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    throw new UnreachableError(
      `no token: pass --token, set SCANDESK_TOKEN, or start the server once so that ${file} exists`,
    );
  }
}

type FetchBody = NonNullable<Parameters<typeof fetch>[1]>['body'];

interface SendInit {
  method: string;
  headers: Record<string, string>;
  body: string | AsyncIterable<Uint8Array> | undefined;
  /** A streamed body: the error of a broken upload names the transfer, not a missing server. */
  streamed?: boolean;
}

/** One GET of a small JSON answer, with the address and port the connection actually reached. */
function probe(url: URL): Promise<{ status: number; body: string; end: SocketEnd }> {
  return new Promise((resolve, reject) => {
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const request = send(url, { method: 'GET', timeout: 10_000 }, (response) => {
      const end = { address: response.socket.remoteAddress ?? '', port: response.socket.remotePort ?? 0 };
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        body += chunk;
        if (body.length > 4096) request.destroy(new Error('the answer is longer than an identity proof'));
      });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body, end }));
      response.on('error', reject);
    });
    request.on('timeout', () => request.destroy(new Error('no answer within 10 s')));
    request.on('error', reject);
    request.end();
  });
}

/**
 * Asks the server at `url` to prove it holds `dataDir`'s key, before that directory's token is
 * sent to it: whatever else listens where the CLI looks (another program, a relay on another
 * loopback address, a stale server of another workspace) never receives the token. Answers the
 * URL to send the token to: `localhost` pinned to the address that was checked.
 */
async function verifyServer(url: string, dataDir: string): Promise<string> {
  const refusal = (why: string): Error =>
    new UnreachableError(
      `the server at ${url} is not this workspace's Scandesk (${why}); refusing to send it the token from ` +
        `${tokenFile(dataDir)}. Pass --url to name the right server, or --token to send a token anyway.`,
    );
  const key = readServerKey(dataDir);
  if (!key)
    throw refusal(`${serverKeyFile(dataDir)} is missing: start this version's server on the data directory once`);
  const challenge = randomBytes(32).toString('hex');
  const target = new URL(`${url}/v1/identity?challenge=${challenge}`);
  let answer: Awaited<ReturnType<typeof probe>>;
  try {
    answer = await probe(target);
  } catch (error) {
    throw transportError(Object.assign(new Error('request failed'), { cause: error }), url, false);
  }
  const body = parseJson(answer.body) as { proof?: unknown } | undefined;
  if (answer.status !== 200 || !isIdentityProof(key, challenge, answer.end, body?.proof)) {
    throw refusal('its identity proof does not match');
  }
  if (target.hostname !== 'localhost') return url;
  // localhost may resolve to ::1 one time and 127.0.0.1 the next: the token goes where the proof came from.
  const address = normalizeAddress(answer.end.address);
  const pinned = new URL(url);
  pinned.hostname = address.includes(':') ? `[${address}]` : address;
  return pinned.toString().replace(/\/+$/, '');
}

/** A thin typed client over the HTTP API. */
export class ApiClient {
  private resolved: ClientOptions | undefined;
  /** The identity check, made once per client and only when the options ask for it: the URL it vouches for. */
  private verified: Promise<string> | undefined;

  /** Options may be given lazily, so that a usage error is reported (exit 2) before a missing token. */
  constructor(private readonly options: ClientOptions | (() => ClientOptions)) {}

  /** A JSON request and its parsed answer (undefined for 204); an error answer is thrown as a ServerError. */
  async request<T>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<T> {
    const { url, token } = await this.target();
    const json = jsonRequest(body, headers);
    let answer: Exchange;
    try {
      answer = await exchange(url + path, {
        method,
        headers: { Authorization: `Bearer ${token}`, ...json.headers },
        body: json.body,
      });
    } catch (error) {
      throw transportError(error, this.resolved!.url, false);
    }
    if (answer.status < 200 || answer.status > 299) throw refusal(answer.status, answer.statusText, answer.body);
    if (answer.status === 204) return undefined as T;
    return parseJson(answer.body) as T;
  }

  /**
   * The raw response of a successful request, its body not yet read: for binary answers (evidence
   * packages) that should be streamed to disk rather than held in memory. An error answer is thrown
   * as a ServerError exactly as `request` does.
   */
  async response(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<Response> {
    return this.send(path, { method, ...jsonRequest(body, headers) });
  }

  /**
   * Sends a stream as the request body (never buffered whole) and parses the JSON answer.
   * `length`, when known, becomes Content-Length so that the server can refuse an oversized body
   * before it is sent, instead of after reading it to its limit.
   */
  async upload<T>(
    method: string,
    path: string,
    body: AsyncIterable<Uint8Array>,
    contentType: string,
    length?: number,
  ): Promise<T> {
    const response = await this.send(path, {
      method,
      headers: {
        'Content-Type': contentType,
        ...(length === undefined ? {} : { 'Content-Length': String(length) }),
      },
      body,
      streamed: true,
    });
    return parseJson(await response.text()) as T;
  }

  /** Where requests go and with which token: the URL a data directory's server proved it holds the key at. */
  private async target(): Promise<{ url: string; token: string }> {
    this.resolved ??= typeof this.options === 'function' ? this.options() : this.options;
    const options = this.resolved;
    if (options.tokenDataDir === undefined) return { url: options.url, token: options.token };
    this.verified ??= verifyServer(options.url, options.tokenDataDir);
    return { url: await this.verified, token: options.token };
  }

  private async send(path: string, init: SendInit): Promise<Response> {
    const { url, token } = await this.target();
    const options = this.resolved!;
    let response: Response;
    try {
      response = await fetch(url + path, {
        method: init.method,
        headers: { Authorization: `Bearer ${token}`, ...init.headers },
        // Node's fetch (undici) takes an async iterable as a body; the DOM typings the tests compile
        // with know only web streams, hence the cast.
        body: init.body as FetchBody,
        // `duplex` is required by fetch for a streamed body. `redirect: 'error'` is what keeps it
        // streamed: with redirects allowed, fetch clones the request to replay it, which tees the
        // body, and the unread branch of the tee held the whole file in memory (measured: an 800 MB
        // upload took 870 MB of RSS; with 'error', 85 MB). The API never redirects.
        ...(init.streamed ? { duplex: 'half', redirect: 'error' } : {}),
      });
    } catch (error) {
      throw transportError(error, options.url, init.streamed === true);
    }
    if (!response.ok) throw refusal(response.status, response.statusText, await response.text());
    return response;
  }
}

/** The headers and body of a request whose body (if any) is JSON. */
function jsonRequest(
  body: unknown,
  headers: Record<string, string>,
): { headers: Record<string, string>; body: string | undefined } {
  if (body === undefined) return { headers, body: undefined };
  return { headers: { ...headers, 'Content-Type': 'application/json' }, body: JSON.stringify(body) };
}

/** An error answer as the ServerError it is, its body's error shape kept. */
function refusal(status: number, statusText: string, text: string): ServerError {
  return ServerError.fromBody(status, parseJson(text), `the server answered ${status} ${statusText}`);
}

function parseJson(text: string): unknown {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}

/** Codes that mean no connection was made at all, as opposed to one that broke mid-request. */
const UNREACHABLE_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

/**
 * A refused connection is the one sentence about `scandesk serve`. A streamed upload can also break
 * once connected (a reset, the file failing under the stream): that is about this one request.
 */
function transportError(error: unknown, url: string, streamed: boolean): Error {
  const reason = error instanceof Error && error.cause instanceof Error ? error.cause.message : String(error);
  const code = error instanceof Error ? (error.cause as NodeJS.ErrnoException | undefined)?.code : undefined;
  if (!streamed || code === undefined || UNREACHABLE_CODES.has(code)) {
    return new UnreachableError(
      `cannot reach the Scandesk server at ${url} (${reason}); is \`scandesk serve\` running?`,
      { cause: error },
    );
  }
  return new TransferError(`the request to ${url} failed (${reason})`, { cause: error });
}

/**
 * Whether a request failed after its connection was made (reset, closed before the answer): it may
 * have reached the server, so only a request that is safe to repeat should be sent again.
 */
export function brokeOff(error: unknown): boolean {
  if (!(error instanceof UnreachableError || error instanceof TransferError)) return false;
  const fetchError = error.cause;
  const code = fetchError instanceof Error ? (fetchError.cause as NodeJS.ErrnoException | undefined)?.code : undefined;
  return code !== undefined && !UNREACHABLE_CODES.has(code);
}
