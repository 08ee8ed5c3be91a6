import { parseArgs } from 'node:util';
import type { ViolationPage } from '../../shared/api/scan-violations';
import type { Scan, ScanList, ScanSummary } from '../../shared/api/scans';
import { parseDateOrDateTime } from '../../shared/time';
import { printJson, table, writeOut } from '../output';
import { count, pageFooter, scanBlock, violationsBlock, violationsTable } from '../scan-format';
import { parseCount } from '../scan-input';
import { EXIT, UsageError } from '../usage-error';
import { CLIENT_OPTIONS, clientFrom } from './client-flags';
import { scansHelp } from './help';

const LIST_OPTIONS = {
  ...CLIENT_OPTIONS,
  since: { type: 'string' },
  until: { type: 'string' },
  tool: { type: 'string' },
  status: { type: 'string' },
  org: { type: 'string' },
  'has-violations': { type: 'string' },
  'package-id': { type: 'string' },
  source: { type: 'string' },
  'origin-id': { type: 'string' },
  origin: { type: 'string' },
  limit: { type: 'string' },
  offset: { type: 'string' },
} as const;

/** `2` plus the worst severity, so that a critical scan stands out in a long list. */
function violationsCell(scan: ScanSummary): string {
  return scan.violation_count === 0 ? '0' : `${count(scan.violation_count)} (${scan.worst_severity ?? '?'})`;
}

/** The list query; shapes are checked here (exit 2), ranges and enums by the server (exit 1, its message). */
function listQuery(values: Partial<Record<keyof typeof LIST_OPTIONS, string | boolean>>): URLSearchParams {
  const query = new URLSearchParams();
  const text = (flag: keyof typeof LIST_OPTIONS): string | undefined => {
    const value = values[flag];
    return typeof value === 'string' ? value : undefined;
  };
  for (const flag of ['since', 'until'] as const) {
    const value = text(flag);
    if (value === undefined) continue;
    if (parseDateOrDateTime(value) === null) {
      throw new UsageError(`--${flag} must be a date (2026-11-01) or an ISO 8601 date-time, not "${value}"`);
    }
    query.set(flag, value);
  }
  for (const flag of ['limit', 'offset'] as const) {
    const value = text(flag);
    if (value !== undefined) query.set(flag, String(parseCount(value, `--${flag}`)));
  }
  const hasViolations = text('has-violations');
  if (hasViolations !== undefined) {
    if (hasViolations !== 'true' && hasViolations !== 'false') {
      throw new UsageError(`--has-violations must be true or false, not "${hasViolations}"`);
    }
    query.set('has_violations', hasViolations);
  }
  const tool = text('tool');
  const status = text('status');
  const org = text('org');
  if (tool !== undefined) query.set('tool', tool);
  if (status !== undefined) query.set('status', status);
  if (org !== undefined) query.set('organization_id', org);
  for (const [flag, parameter] of [
    ['package-id', 'package_id'],
    ['source', 'source'],
    ['origin-id', 'origin_id'],
    ['origin', 'origin'],
  ] as const) {
    const value = text(flag);
    if (value !== undefined) query.set(parameter, value);
  }
  return query;
}

async function list(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args, options: LIST_OPTIONS, allowPositionals: true });
  if (positionals.length > 0) throw new UsageError(`scans list: unexpected argument "${positionals[0]}"\n${scansHelp}`);
  const query = listQuery(values);
  const search = query.size > 0 ? `?${query.toString()}` : '';
  const page = await clientFrom(values).request<ScanList>('GET', `/v1/scans${search}`);
  if (values.json) {
    printJson(page);
    return EXIT.ok;
  }
  if (page.scans.length > 0) {
    writeOut(
      `${table(
        ['ID', 'CREATED', 'TOOL', 'ACTION', 'TOKENS', 'STATUS', 'VIOLATIONS'],
        page.scans.map((scan) => [
          scan.id,
          scan.created_at,
          scan.tool,
          scan.action,
          count(scan.tokens),
          scan.status,
          violationsCell(scan),
        ]),
        { right: [4] },
      )}\n`,
    );
  }
  const offset = Number(query.get('offset') ?? 0);
  writeOut(`${pageFooter(offset, page.scans.length, page.total)}\n`);
  return EXIT.ok;
}

async function get(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args, options: CLIENT_OPTIONS, allowPositionals: true });
  const [id, extra] = positionals;
  if (id === undefined) throw new UsageError(`scans get: missing SCAN_ID\n${scansHelp}`);
  if (extra !== undefined) throw new UsageError(`scans get: unexpected argument "${extra}"\n${scansHelp}`);
  const scan = await clientFrom(values).request<Scan>('GET', `/v1/scans/${encodeURIComponent(id)}`);
  if (values.json) printJson(scan);
  else {
    const more = { total: scan.violation_count, scanId: scan.id };
    writeOut(`${scanBlock(scan)}\n\n${violationsBlock(scan.violations, undefined, more)}\n`);
  }
  return EXIT.ok;
}

const PAGE_OPTIONS = { ...CLIENT_OPTIONS, limit: { type: 'string' }, offset: { type: 'string' } } as const;

/** One page of a scan's violations, however many it has; the footer names the next page's flag. */
async function violations(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args, options: PAGE_OPTIONS, allowPositionals: true });
  const [id, extra] = positionals;
  if (id === undefined) throw new UsageError(`scans violations: missing SCAN_ID\n${scansHelp}`);
  if (extra !== undefined) throw new UsageError(`scans violations: unexpected argument "${extra}"\n${scansHelp}`);
  const query = new URLSearchParams();
  for (const flag of ['offset', 'limit'] as const) {
    const value = values[flag];
    if (value !== undefined) query.set(flag, String(parseCount(value, `--${flag}`)));
  }
  const search = query.size > 0 ? `?${query.toString()}` : '';
  const page = await clientFrom(values).request<ViolationPage>(
    'GET',
    `/v1/scans/${encodeURIComponent(id)}/violations${search}`,
  );
  if (values.json) {
    printJson(page);
    return EXIT.ok;
  }
  if (page.violations.length > 0) writeOut(`${violationsTable(page.violations)}\n`);
  const offset = Number(query.get('offset') ?? 0);
  writeOut(`${pageFooter(offset, page.violations.length, page.total, 'violation')}\n`);
  return EXIT.ok;
}

export async function scansCommand(args: string[]): Promise<number> {
  const [action, ...rest] = args;
  switch (action) {
    case 'list':
      return list(rest);
    case 'get':
      return get(rest);
    case 'violations':
      return violations(rest);
    default:
      throw new UsageError(`scans: unknown action "${action ?? ''}"\n${scansHelp}`);
  }
}
