/**
 * The list baseline: `GET /v1/scans` on bare node:http with hand-written prepared SQL, the
 * straightforward statement for the scan list of docs/contract/api.md#scan-list (visible scans,
 * filtered, newest first, LIMIT/OFFSET) plus the COUNT for `total`, on the same file as the real
 * server. Only the parameters the benchmark sends are understood (limit, offset, since, tool); any
 * other is a 400, so that a benchmark asking for more cannot silently compare different queries.
 *
 * usage: node --import tsx bench/lib/bare-list-server.ts DATA_DIR
 */
import { createServer } from 'node:http';
import type SQLite from 'better-sqlite3';
import { SEVERITY_BY_RANK } from '../../src/shared/policy/severity';
import { authorized, listen, openBareStore, sendJson } from './bare-common';

interface Row {
  id: string;
  created_at: number;
  tool: string;
  tokens: number;
  status: string;
  action: string;
  organization_id: string | null;
  source: string;
  violation_count: number;
  worst_severity: number;
}

const KNOWN = new Set(['limit', 'offset', 'since', 'tool']);
const VISIBLE = `(submitted_by = @user OR organization_id IN (
  SELECT organization_id FROM memberships WHERE user_id = @user AND role IN ('owner', 'admin')))`;

const store = await openBareStore(process.argv[2]);
const { sqlite, ownerId } = store;

interface Statements {
  page: SQLite.Statement;
  count: SQLite.Statement;
}

// One pair of statements per combination of filters, prepared on first use.
const prepared = new Map<string, Statements>();
function statements(since: boolean, tool: boolean): Statements {
  const key = `${since}:${tool}`;
  let found = prepared.get(key);
  if (!found) {
    const where = [VISIBLE, ...(since ? ['created_at >= @since'] : []), ...(tool ? ['tool = @tool'] : [])].join(
      ' AND ',
    );
    found = {
      page: sqlite.prepare(
        `SELECT id, created_at, tool, tokens, status, action, organization_id, source, violation_count, worst_severity
         FROM scans WHERE ${where} ORDER BY created_at DESC, id DESC LIMIT @limit OFFSET @offset`,
      ),
      count: sqlite.prepare(`SELECT count(*) AS total FROM scans WHERE ${where}`).pluck(),
    };
    prepared.set(key, found);
  }
  return found;
}

const integer = (text: string | null, fallback: number): number => (text === null ? fallback : Number(text));

const server = createServer((request, response) => {
  const url = new URL(request.url ?? '/', 'http://localhost');
  if (request.method !== 'GET' || url.pathname !== '/v1/scans') return sendJson(response, 404, { error: 'not_found' });
  if (!authorized(request, store.token)) return sendJson(response, 401, { error: 'unauthorized' });
  const query = url.searchParams;
  const limit = integer(query.get('limit'), 50);
  const offset = integer(query.get('offset'), 0);
  const sinceText = query.get('since');
  const since = sinceText === null ? null : Date.parse(sinceText);
  const tool = query.get('tool');
  if (
    [...query.keys()].some((key) => !KNOWN.has(key)) ||
    !Number.isInteger(limit) ||
    limit < 1 ||
    limit > 500 ||
    !Number.isInteger(offset) ||
    offset < 0 ||
    Number.isNaN(since)
  ) {
    return sendJson(response, 400, { error: 'validation_failed' });
  }
  const params = {
    user: ownerId,
    limit,
    offset,
    ...(since === null ? {} : { since }),
    ...(tool === null ? {} : { tool }),
  };
  const { page, count } = statements(since !== null, tool !== null);
  const rows = page.all(params) as Row[];
  const total = count.get(params) as number;
  sendJson(response, 200, {
    scans: rows.map((row) => ({
      id: row.id,
      created_at: new Date(row.created_at).toISOString(),
      tool: row.tool,
      tokens: row.tokens,
      status: row.status,
      action: row.action,
      organization_id: row.organization_id,
      source: row.source,
      violation_count: row.violation_count,
      worst_severity: SEVERITY_BY_RANK[row.worst_severity] ?? null,
    })),
    total,
  });
});
listen(server, () => sqlite.close());
