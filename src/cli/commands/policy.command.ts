import { parseArgs } from 'node:util';
import type { Policy } from '../../shared/api/policies';
import { printJson, writeOut } from '../output';
import { applyPolicyChanges, parsePolicyChanges } from '../policy-edit';
import { policyBlock } from '../scan-format';
import { EXIT, UsageError } from '../usage-error';
import { CLIENT_OPTIONS, clientFrom } from './client-flags';
import { policyHelp } from './help';

const SET_OPTIONS = {
  ...CLIENT_OPTIONS,
  'max-tokens-per-scan': { type: 'string' },
  'max-tokens-per-request': { type: 'string' },
  'allowed-tools': { type: 'string' },
  'blocked-tools': { type: 'string' },
  'blocked-actions': { type: 'string' },
} as const;

function orgIdOf(action: string, positionals: string[]): string {
  const [orgId, extra] = positionals;
  if (orgId === undefined) throw new UsageError(`policy ${action}: missing ORG_ID\n${policyHelp}`);
  if (extra !== undefined) throw new UsageError(`policy ${action}: unexpected argument "${extra}"\n${policyHelp}`);
  return orgId;
}

const policyPath = (orgId: string): string => `/v1/organizations/${encodeURIComponent(orgId)}/policy`;

async function get(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args, options: CLIENT_OPTIONS, allowPositionals: true });
  const orgId = orgIdOf('get', positionals);
  const policy = await clientFrom(values).request<Policy>('GET', policyPath(orgId));
  if (values.json) printJson(policy);
  else writeOut(`${policyBlock(policy)}\n`);
  return EXIT.ok;
}

async function set(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args, options: SET_OPTIONS, allowPositionals: true });
  const orgId = orgIdOf('set', positionals);
  // Parsed before any request, so that a bad value is a usage error and nothing is read or written.
  const changes = parsePolicyChanges(values);
  const client = clientFrom(values);
  // PUT replaces the whole policy, so this is a read-modify-write. The contract has no version
  // check: an edit by someone else between the two requests is overwritten.
  const current = await client.request<Policy>('GET', policyPath(orgId));
  const policy = await client.request<Policy>('PUT', policyPath(orgId), applyPolicyChanges(current, changes));
  if (values.json) printJson(policy);
  else writeOut(`updated the policy of ${orgId}\n${policyBlock(policy)}\n`);
  return EXIT.ok;
}

export async function policyCommand(args: string[]): Promise<number> {
  const [action, ...rest] = args;
  switch (action) {
    case 'get':
      return get(rest);
    case 'set':
      return set(rest);
    default:
      throw new UsageError(`policy: unknown action "${action ?? ''}"\n${policyHelp}`);
  }
}
