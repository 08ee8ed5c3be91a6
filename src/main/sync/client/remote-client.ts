import { open, rm } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Agent, Dispatcher, request } from 'undici';
import { isErrorBody } from '../../../shared/api/error-codes';
import { VERSION } from '../../version';
import { RemoteBroken, RemoteRefused, RemoteUnreachable, RemoteUntrusted } from './remote-errors';

/** The JSON answers a remote gives (a feed page, a scan list, a posted scan) stay far below this. */
export const JSON_MAX_BYTES = 16 * 1024 * 1024;

/** An error body is a sentence and a few details; more is not worth reading. */
const ERROR_BODY_MAX_BYTES = 64 * 1024;

export interface RemoteTimeouts {
  /** To open the connection (TCP and TLS). */
  connectMs: number;
  /** From the request sent to the response's headers. */
  headersMs: number;
  /** Between two chunks of a response body. */
  bodyMs: number;
  /** A whole JSON request, however slowly its bytes trickle in. */
  jsonTotalMs: number;
  /** A whole download (an evidence package of a thousand scans), however slowly it trickles in. */
  downloadTotalMs: number;
}

export const DEFAULT_TIMEOUTS: RemoteTimeouts = {
  connectMs: 10_000,
  headersMs: 30_000,
  bodyMs: 60_000,
  jsonTotalMs: 120_000,
  downloadTotalMs: 30 * 60_000,
};

export interface RemoteClientOptions {
  /** The remote's base URL as checked by remote-url.ts (a path prefix kept, no trailing slash). */
  url: string;
  token: string;
  /** PEM of the CAs to trust instead of the system's. */
  caPem?: string | null | undefined;
  timeouts?: Partial<RemoteTimeouts>;
  jsonMaxBytes?: number;
}

export type Query = Record<string, string | number | boolean | undefined>;

export interface PostResult<T> {
  status: number;
  body: T;
  headers: Record<string, string | string[] | undefined>;
}

export interface DownloadOptions {
  /** Over this many body bytes the download stops, its file is removed, and RemoteBroken is thrown. */
  maxBytes: number;
  /** Called with the body bytes received so far, for progress. */
  onBytes?: (bytes: number) => void;
  /** Aborts the download (the run was cancelled); it then fails as RemoteUnreachable. */
  signal?: AbortSignal;
}

export interface DownloadResult {
  status: number;
  bytes: number;
  headers: Record<string, string | string[] | undefined>;
}

/** What `probeKind` found: a Scandesk server answers the change feed, an upstream one only its interface. */
export type RemoteKindProbe = { kind: 'scandesk'; scans: number } | { kind: 'upstream' };

/** Checks a parsed answer's shape; getJson throws RemoteBroken when it says no. */
export type ShapeCheck<T> = (value: unknown) => value is T;

// Node's and OpenSSL's codes for a certificate that is not trusted or not the host's.
const UNTRUSTED_CODES = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'CERT_UNTRUSTED',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'CERT_SIGNATURE_FAILURE',
  'CERT_REVOKED',
  'INVALID_CA',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

const TIMEOUT_CODES = new Set([
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'ETIMEDOUT',
]);

/** Errors wrap their causes (undici, AbortSignal): every code found down the chain, outermost first. */
function codesOf(error: unknown): string[] {
  const codes: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') codes.push(code);
    // An AbortSignal's reasons are DOMExceptions, whose `code` is a number.
    if (current.name === 'TimeoutError') codes.push('ETIMEDOUT');
    if (current.name === 'AbortError') codes.push('ABORT_ERR');
    current = (current as { cause?: unknown }).cause;
  }
  return codes;
}

/** The one connection pool of a client, and undici's request. */
interface Undici {
  agent: Agent;
  request: typeof request;
}

/**
 * A client for one remote: bearer token, the remote's CA if it has one, timeouts at every stage,
 * size caps, and every failure turned into one of the four classes of remote-errors.ts. One
 * connection pool per client: `close()` it when the run ends.
 */
export class RemoteClient {
  readonly baseUrl: string;
  private readonly token: string;
  /** Made at the first request: undici is loaded then, not by every process that could sync. */
  private pool: Promise<Undici> | undefined;
  private readonly caPem: string | undefined;
  private readonly timeouts: RemoteTimeouts;
  private readonly jsonMaxBytes: number;
  private readonly host: string;

  constructor(options: RemoteClientOptions) {
    this.baseUrl = options.url.replace(/\/+$/, '');
    this.host = new URL(this.baseUrl).host;
    this.token = options.token;
    this.timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts };
    this.jsonMaxBytes = options.jsonMaxBytes ?? JSON_MAX_BYTES;
    this.caPem = options.caPem ?? undefined;
  }

  private undici(): Promise<Undici> {
    // A CommonJS package: its exports object is the default export, in the sources and the bundle alike.
    this.pool ??= import('undici').then(({ default: { Agent, request } }) => ({
      agent: new Agent({
        connect: {
          timeout: this.timeouts.connectMs,
          ...(this.caPem ? { ca: this.caPem } : {}),
        },
        headersTimeout: this.timeouts.headersMs,
        bodyTimeout: this.timeouts.bodyMs,
      }),
      request,
    }));
    return this.pool;
  }

  /** A GET of a JSON answer (at most `jsonMaxBytes`), checked by `check` when given. */
  async getJson<T = unknown>(path: string, query?: Query, check?: ShapeCheck<T>): Promise<T> {
    const signal = AbortSignal.timeout(this.timeouts.jsonTotalMs);
    const response = await this.send('GET', path, { query, signal, accept: 'application/json' });
    await this.refuseErrorStatus(response);
    const value = await this.readJson(response, path);
    if (check && !check(value)) throw new RemoteBroken(`the remote's answer to ${path} is not of the expected shape`);
    return value as T;
  }

  /**
   * A POST of a JSON body; a 2xx answer's status (200 and 201 differ: a replayed idempotent
   * request answers 200), parsed body and headers. Any other status throws RemoteRefused.
   */
  async postJson<T = unknown>(
    path: string,
    body: unknown,
    headers: Record<string, string> = {},
    check?: ShapeCheck<T>,
  ): Promise<PostResult<T>> {
    const signal = AbortSignal.timeout(this.timeouts.jsonTotalMs);
    const response = await this.send('POST', path, {
      signal,
      accept: 'application/json',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    await this.refuseErrorStatus(response);
    const value = await this.readJson(response, path);
    if (check && !check(value)) throw new RemoteBroken(`the remote's answer to ${path} is not of the expected shape`);
    return { status: response.statusCode, body: value as T, headers: response.headers };
  }

  /**
   * Streams a response body (an evidence package) into `toFile`, which is created or truncated. On
   * any failure the file is removed: a partial package never stays behind.
   */
  async download(
    method: 'GET' | 'POST',
    path: string,
    body: unknown,
    toFile: string,
    options: DownloadOptions,
  ): Promise<DownloadResult> {
    const signal = AbortSignal.any([
      AbortSignal.timeout(this.timeouts.downloadTotalMs),
      ...(options.signal ? [options.signal] : []),
    ]);
    const response = await this.send(method, path, {
      accept: '*/*',
      signal,
      ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    });
    await this.refuseErrorStatus(response);
    const declared = Number(response.headers['content-length']);
    if (Number.isFinite(declared) && declared > options.maxBytes) {
      response.body.destroy();
      throw new RemoteBroken(`the remote's answer to ${path} is larger than ${options.maxBytes} bytes`);
    }
    const tooLarge = (): RemoteBroken =>
      new RemoteBroken(`the remote's answer to ${path} is larger than ${options.maxBytes} bytes`);
    let bytes = 0;
    // Opened before the pipeline starts, so that the file exists by the time a failure removes
    // it: a stream left to open it itself could create it after the removal.
    const file = await open(toFile, 'w', 0o600).catch((error: unknown) => {
      response.body.destroy();
      throw error;
    });
    try {
      await pipeline(
        response.body,
        async function* count(source: AsyncIterable<Buffer>) {
          for await (const chunk of source) {
            bytes += chunk.length;
            if (bytes > options.maxBytes) throw tooLarge();
            options.onBytes?.(bytes);
            yield chunk;
          }
        },
        file.createWriteStream(),
      );
    } catch (error) {
      await file.close().catch(() => undefined);
      await rm(toFile, { force: true });
      throw this.transportError(error, path);
    }
    return { status: response.statusCode, bytes, headers: response.headers };
  }

  /**
   * A POST of a JSON body whose answer is read as it arrives (NDJSON): its chunks, and any failure
   * below HTTP in the words of remote-errors.ts. Bounded by the download timeouts.
   */
  async *postStream(path: string, body: unknown, signal?: AbortSignal): AsyncGenerator<Buffer, void, undefined> {
    const all = AbortSignal.any([AbortSignal.timeout(this.timeouts.downloadTotalMs), ...(signal ? [signal] : [])]);
    const response = await this.send('POST', path, {
      accept: 'application/x-ndjson',
      signal: all,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    await this.refuseErrorStatus(response);
    try {
      for await (const chunk of response.body as AsyncIterable<Buffer>) yield chunk;
    } catch (error) {
      throw this.transportError(error, path);
    } finally {
      if (!response.body.destroyed) response.body.destroy();
    }
  }

  /**
   * Which kind of server the remote is: the change feed answers (`scandesk`), else the
   * organizations list does (`upstream`). A token the remote refuses says so.
   */
  async probeKind(): Promise<RemoteKindProbe> {
    try {
      const page = await this.getJson('/v1/sync/changes', { limit: 1 }, isFeedPage);
      return { kind: 'scandesk', scans: page.total };
    } catch (error) {
      if (!(error instanceof RemoteRefused) || error.status !== 404) throw error;
    }
    try {
      await this.getJson('/v1/organizations', undefined, isOrganizationList);
      return { kind: 'upstream' };
    } catch (error) {
      if (error instanceof RemoteBroken || (error instanceof RemoteRefused && error.status === 404)) {
        throw new RemoteBroken(
          `${this.host} is not a Scandesk server nor one of the upstream interface: check the URL and its path`,
        );
      }
      throw error;
    }
  }

  /** Waits for requests in flight, then closes the connections. */
  async close(): Promise<void> {
    if (this.pool) await (await this.pool).agent.close();
  }

  /** Cuts every connection now: requests in flight fail as RemoteUnreachable. */
  async destroy(): Promise<void> {
    if (this.pool) await (await this.pool).agent.destroy();
  }

  private async send(
    method: string,
    path: string,
    init: {
      query?: Query | undefined;
      signal?: AbortSignal;
      accept: string;
      headers?: Record<string, string>;
      body?: string;
    },
  ): Promise<Dispatcher.ResponseData> {
    if (!path.startsWith('/')) throw new Error(`a remote path starts with /: ${path}`);
    const url = new URL(`${this.baseUrl}${path}`);
    for (const [name, value] of Object.entries(init.query ?? {})) {
      if (value !== undefined) url.searchParams.set(name, String(value));
    }
    const { agent, request: undiciRequest } = await this.undici();
    try {
      return await undiciRequest(url, {
        method: method as Dispatcher.HttpMethod,
        dispatcher: agent,
        headers: {
          ...init.headers,
          accept: init.accept,
          authorization: `Bearer ${this.token}`,
          'user-agent': `scandesk/${VERSION} (sync)`,
        },
        ...(init.body === undefined ? {} : { body: init.body }),
        ...(init.signal ? { signal: init.signal } : {}),
      });
    } catch (error) {
      throw this.transportError(error, path);
    }
  }

  /** A non-2xx answer as an error in a sentence, with the remote's own message when it has our shape. */
  private async refuseErrorStatus(response: Dispatcher.ResponseData): Promise<void> {
    const status = response.statusCode;
    if (status >= 200 && status < 300) return;
    const text = await readCapped(response.body, ERROR_BODY_MAX_BYTES).catch(() => null);
    let parsed: unknown;
    try {
      parsed = text === null ? undefined : JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    const remote = isErrorBody(parsed) ? parsed.error : undefined;
    if (status === 502 || status === 503 || status === 504) {
      throw new RemoteUnreachable(`${this.host} is unavailable (HTTP ${status}); try again later`);
    }
    if (status >= 300 && status < 400) {
      throw new RemoteRefused(
        `${this.host} answered with a redirect (HTTP ${status}): give the address it redirects to as the remote's URL`,
        status,
      );
    }
    const message =
      status === 401
        ? `${this.host} refused the token: give the remote a valid one`
        : status === 403
          ? `${this.host} refused access${remote ? `: ${remote.message}` : ''}`
          : `${this.host} answered HTTP ${status}${remote ? `: ${remote.message}` : ''}`;
    throw new RemoteRefused(message, status, remote?.code, remote?.message);
  }

  private async readJson(response: Dispatcher.ResponseData, path: string): Promise<unknown> {
    const declared = Number(response.headers['content-length']);
    if (Number.isFinite(declared) && declared > this.jsonMaxBytes) {
      response.body.destroy();
      throw new RemoteBroken(`the remote's answer to ${path} is larger than ${this.jsonMaxBytes} bytes`);
    }
    let text: string | null;
    try {
      text = await readCapped(response.body, this.jsonMaxBytes);
    } catch (error) {
      throw this.transportError(error, path);
    }
    if (text === null)
      throw new RemoteBroken(`the remote's answer to ${path} is larger than ${this.jsonMaxBytes} bytes`);
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new RemoteBroken(`the remote's answer to ${path} is not JSON`);
    }
  }

  /** A failure below HTTP, in the words of remote-errors.ts. */
  private transportError(error: unknown, path: string): Error {
    if (error instanceof RemoteBroken || error instanceof RemoteUnreachable) return error;
    const codes = codesOf(error);
    if (codes.some((code) => UNTRUSTED_CODES.has(code))) {
      const mismatch = codes.includes('ERR_TLS_CERT_ALTNAME_INVALID');
      return new RemoteUntrusted(
        mismatch
          ? `${this.host}'s certificate is not for that host name`
          : `${this.host}'s certificate is not trusted: if the remote uses a private CA, pass --ca with its certificate`,
      );
    }
    if (codes.some((code) => TIMEOUT_CODES.has(code))) {
      return new RemoteUnreachable(`${this.host} did not answer in time (${path})`);
    }
    const code = codes[0];
    const why =
      code === 'ENOTFOUND' || code === 'EAI_AGAIN'
        ? 'its name does not resolve'
        : code === 'ECONNREFUSED'
          ? 'the connection was refused'
          : code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' || code === 'EPIPE'
            ? 'the connection was cut'
            : code === 'EHOSTUNREACH' || code === 'ENETUNREACH' || code === 'ENETDOWN'
              ? 'the network cannot reach it'
              : code === 'UND_ERR_CLOSED' || code === 'UND_ERR_DESTROYED'
                ? 'the connection was closed'
                : code === 'ABORT_ERR' || code === 'UND_ERR_ABORTED'
                  ? 'the request was cancelled'
                  : `the request failed${code ? ` (${code})` : ''}`;
    return new RemoteUnreachable(`cannot reach ${this.host}: ${why}`);
  }
}

/** The body as text, or null when it is over `max` bytes (the rest is not read). */
async function readCapped(body: Readable, max: number): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > max) {
      body.destroy();
      return null;
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

function isFeedPage(value: unknown): value is { total: number } {
  return isObject(value) && Number.isSafeInteger(value.total) && (value.total as number) >= 0;
}

function isOrganizationList(value: unknown): value is { organizations: unknown[] } {
  return isObject(value) && Array.isArray(value.organizations);
}
