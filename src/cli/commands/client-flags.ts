import { parseArgs, type ParseArgsConfig } from 'node:util';
import { ApiClient, resolveClientOptions } from '../client';

const CLIENT_OPTIONS = {
  url: { type: 'string' },
  token: { type: 'string' },
  json: { type: 'boolean', default: false },
} as const satisfies ParseArgsConfig['options'];

/** Parses the flags every API command shares (`--url`, `--token`, `--json`) plus positionals. */
export function parseClientArgs(args: string[]): { client: ApiClient; json: boolean; positionals: string[] } {
  const { values, positionals } = parseArgs({ args, options: CLIENT_OPTIONS, allowPositionals: true });
  return { client: new ApiClient(() => resolveClientOptions(values)), json: values.json, positionals };
}
