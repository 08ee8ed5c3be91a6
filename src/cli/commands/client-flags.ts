import { parseArgs, type ParseArgsConfig } from 'node:util';
import { ApiClient, resolveClientOptions } from '../client';

/** The flags every API command shares; spread into a command's own `parseArgs` options. */
export const CLIENT_OPTIONS = {
  url: { type: 'string' },
  token: { type: 'string' },
  json: { type: 'boolean', default: false },
} as const satisfies ParseArgsConfig['options'];

/** A client that looks for its URL and token only on its first request, after every usage check. */
export function clientFrom(values: { url?: string | undefined; token?: string | undefined }): ApiClient {
  return new ApiClient(() => resolveClientOptions(values));
}

/** Parses the flags every API command shares (`--url`, `--token`, `--json`) plus positionals. */
export function parseClientArgs(args: string[]): { client: ApiClient; json: boolean; positionals: string[] } {
  const { values, positionals } = parseArgs({ args, options: CLIENT_OPTIONS, allowPositionals: true });
  return { client: clientFrom(values), json: values.json, positionals };
}
