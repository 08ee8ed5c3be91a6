import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { CreateRemoteBody, Remote, RemoteList, RemoteTestResult } from '../../shared/api/remotes';
import { ServerError } from '../client-errors';
import { printJson, table, writeErr, writeOut } from '../output';
import { EXIT, UsageError } from '../usage-error';
import { clientFrom } from './client-flags';
import { remoteHelp } from './help';

// `--token` names the remote's token here (as people write `remote add team URL --token …`), so
// the local server's token comes only from SCANDESK_TOKEN or the data directory's token file.
const OPTIONS = {
  url: { type: 'string' },
  json: { type: 'boolean', default: false },
} as const;

const ADD_OPTIONS = {
  ...OPTIONS,
  token: { type: 'string' },
  'token-file': { type: 'string' },
  ca: { type: 'string' },
  'allow-insecure-http': { type: 'boolean', default: false },
  'no-background': { type: 'boolean', default: false },
  interval: { type: 'string' },
  'no-test': { type: 'boolean', default: false },
} as const;

const enc = encodeURIComponent;

function readFileArg(flag: string, file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new UsageError(`remote add: cannot read ${flag} ${file}: ${(error as Error).message}`);
  }
}

/** Exactly one source of the remote's token; the file and the environment stay out of `ps`. */
function remoteToken(values: { token?: string | undefined; 'token-file'?: string | undefined }): string {
  if (values.token !== undefined && values['token-file'] !== undefined) {
    throw new UsageError('remote add: give --token or --token-file, not both');
  }
  const token =
    values.token ??
    (values['token-file'] !== undefined ? readFileArg('--token-file', values['token-file']) : undefined) ??
    process.env.SCANDESK_REMOTE_TOKEN;
  if (token === undefined || token.trim() === '') {
    throw new UsageError(
      "remote add: give the remote's token with --token-file FILE, --token T or SCANDESK_REMOTE_TOKEN",
    );
  }
  return token.trim();
}

function interval(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const minutes = Number(value);
  if (!/^\d+$/.test(value) || minutes < 1 || minutes > 1440) {
    throw new UsageError('remote add: --interval must be a whole number of minutes from 1 to 1440');
  }
  return minutes;
}

/** One line for a person: what the remote is and what its user sees. */
function describeTest(name: string, result: RemoteTestResult): string {
  const plural = (n: number, word: string): string => `${n.toLocaleString('en-US')} ${word}${n === 1 ? '' : 's'}`;
  const what =
    result.kind === 'scandesk'
      ? `a Scandesk server (user ${result.remote_user_id ?? 'unknown'})`
      : 'a server of the upstream interface (no change feed: each sync lists its scans)';
  return `${name}: ${what}; ${plural(result.organizations, 'organization')}, ${plural(result.scans, 'scan')} to pull\n`;
}

async function add(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args, options: ADD_OPTIONS, allowPositionals: true });
  const [name, url, ...extra] = positionals;
  if (name === undefined || url === undefined) throw new UsageError(`remote add: give NAME and URL\n${remoteHelp}`);
  if (extra.length > 0) throw new UsageError(`remote add: unexpected "${extra[0]}"`);
  const body: CreateRemoteBody = {
    name,
    url,
    token: remoteToken(values),
    allow_insecure_http: values['allow-insecure-http'],
    background: !values['no-background'],
  };
  if (values.ca !== undefined) body.ca_pem = readFileArg('--ca', values.ca);
  const minutes = interval(values.interval);
  if (minutes !== undefined) body.interval_minutes = minutes;
  const client = clientFrom({ url: values.url });
  const remote = await client.request<Remote>('POST', '/v1/remotes', body);
  if (values['no-test']) {
    if (values.json) printJson({ remote });
    else writeOut(`added ${remote.name} (${remote.url})\n`);
    return EXIT.ok;
  }
  try {
    const test = await client.request<RemoteTestResult>('POST', `/v1/remotes/${enc(remote.name)}/test`);
    if (values.json) printJson({ remote, test });
    else writeOut(`added ${remote.name} (${remote.url})\n${describeTest(remote.name, test)}`);
    return EXIT.ok;
  } catch (error) {
    if (!(error instanceof ServerError)) throw error;
    if (values.json) printJson({ remote, test: null, error: error.message });
    else writeOut(`added ${remote.name} (${remote.url})\n`);
    writeErr(
      `error: testing ${remote.name} failed: ${error.message}\n` +
        `  the remote is kept; fix it (scandesk remote remove ${remote.name}, then add it again) and run \`scandesk remote test ${remote.name}\`\n`,
    );
    return EXIT.failed;
  }
}

export async function remoteCommand(args: string[]): Promise<number> {
  const [action, ...rest] = args;
  if (action === 'add') return add(rest);
  const { values, positionals } = parseArgs({ args: rest, options: OPTIONS, allowPositionals: true });
  const client = clientFrom({ url: values.url });
  const one = (): string => {
    const [name, ...extra] = positionals;
    if (name === undefined) throw new UsageError(`remote ${action ?? ''}: give NAME`);
    if (extra.length > 0) throw new UsageError(`remote ${action ?? ''}: unexpected "${extra[0]}"`);
    return name;
  };
  switch (action) {
    case 'list': {
      if (positionals.length > 0) throw new UsageError(`remote list: unexpected "${positionals[0]}"`);
      const { remotes } = await client.request<RemoteList>('GET', '/v1/remotes');
      if (values.json) printJson({ remotes });
      else if (remotes.length === 0) writeOut('no remotes; add one with `scandesk remote add NAME URL`\n');
      else
        writeOut(
          `${table(
            ['NAME', 'URL', 'KIND', 'BACKGROUND', 'LAST SYNC'],
            remotes.map((r) => [
              r.name,
              r.url,
              r.kind ?? 'untested',
              r.background ? `every ${r.interval_minutes} min` : 'off',
              r.last_sync ? `${r.last_sync.outcome} at ${r.last_sync_at ?? ''}` : 'never',
            ]),
          )}\n`,
        );
      return EXIT.ok;
    }
    case 'test': {
      const name = one();
      const result = await client.request<RemoteTestResult>('POST', `/v1/remotes/${enc(name)}/test`);
      if (values.json) printJson(result);
      else writeOut(describeTest(name, result));
      return EXIT.ok;
    }
    case 'remove': {
      const name = one();
      await client.request('DELETE', `/v1/remotes/${enc(name)}`);
      if (values.json) printJson({ removed: name });
      else writeOut(`removed ${name}; what it pulled stays here\n`);
      return EXIT.ok;
    }
    default:
      throw new UsageError(`remote: unknown action "${action ?? ''}"\n${remoteHelp}`);
  }
}
