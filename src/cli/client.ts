import { readFileSync } from 'node:fs';
import { isErrorBody } from '../shared/api/error-codes';
import { defaultDataDir, DEFAULT_HOST, DEFAULT_PORT, tokenFile } from '../main/paths';
import { ServerError, UnreachableError } from './client-errors';

// Re-exported: the error classes live apart so that index.ts can classify them without loading this file.
export { ServerError, UnreachableError };

export interface ClientOptions {
  url: string;
  token: string;
}

export function resolveClientOptions(
  flags: { url?: string | undefined; token?: string | undefined },
  env = process.env,
): ClientOptions {
  const url = (flags.url ?? env.SCANDESK_URL ?? `http://${DEFAULT_HOST}:${DEFAULT_PORT}`).replace(/\/+$/, '');
  const token = flags.token ?? env.SCANDESK_TOKEN ?? readDefaultToken(env);
  return { url, token };
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

/** A thin typed client over the HTTP API. */
export class ApiClient {
  private resolved: ClientOptions | undefined;

  /** Options may be given lazily, so that a usage error is reported (exit 2) before a missing token. */
  constructor(private readonly options: ClientOptions | (() => ClientOptions)) {}

  async request<T>(method: string, path: string, body?: unknown): Promise<T> {
    this.resolved ??= typeof this.options === 'function' ? this.options() : this.options;
    const options = this.resolved;
    let response: Response;
    try {
      response = await fetch(options.url + path, {
        method,
        headers: {
          Authorization: `Bearer ${options.token}`,
          ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch (error) {
      const reason = error instanceof Error && error.cause instanceof Error ? error.cause.message : String(error);
      throw new UnreachableError(
        `cannot reach the Scandesk server at ${options.url} (${reason}); is \`scandesk serve\` running?`,
      );
    }
    if (response.status === 204) return undefined as T;
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    if (!response.ok) {
      if (isErrorBody(parsed)) {
        throw new ServerError(response.status, parsed.error.code, parsed.error.message, parsed.error.details ?? []);
      }
      throw new ServerError(
        response.status,
        'unknown',
        `the server answered ${response.status} ${response.statusText}`,
        [],
      );
    }
    return parsed as T;
  }
}
