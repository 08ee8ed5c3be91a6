/**
 * What both bare submit baselines (SQLite and PostgreSQL) do with a request before storing it:
 * read the body, parse it, check the submit body's fields minimally (docs/contract/api.md#scans),
 * and answer the stored scan.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { newId } from '../../src/main/ids';
import { authorized, sendJson } from './bare-common';

const BODY_LIMIT = 32 * 1024 * 1024;
const MAX_TIMELINE = 100_000;

export interface Entry {
  timestamp: number;
  action: string;
  tokens: number;
}

export interface Submission {
  tool: string;
  action: string;
  tokens: number;
  timeline: Entry[] | null;
}

const name = (value: unknown): value is string => typeof value === 'string' && value.length >= 1 && value.length <= 100;
const count = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;

/** The fields docs/contract/api.md#scans requires, or null: enough validation to never store nonsense. */
export function validate(body: unknown): Submission | null {
  if (typeof body !== 'object' || body === null) return null;
  const { tool, action, tokens, timeline } = body as Record<string, unknown>;
  if (!name(tool) || !name(action) || !count(tokens)) return null;
  if (timeline === undefined) return { tool, action, tokens, timeline: null };
  if (!Array.isArray(timeline) || timeline.length > MAX_TIMELINE) return null;
  const entries: Entry[] = [];
  let sum = 0;
  for (const item of timeline as unknown[]) {
    if (typeof item !== 'object' || item === null) return null;
    const entry = item as Record<string, unknown>;
    const timestamp = typeof entry.timestamp === 'string' ? Date.parse(entry.timestamp) : Number.NaN;
    if (Number.isNaN(timestamp) || !name(entry.action) || !count(entry.tokens)) return null;
    sum += entry.tokens;
    entries.push({ timestamp, action: entry.action, tokens: entry.tokens });
  }
  if (sum !== tokens) return null;
  return { tool, action, tokens, timeline: entries.sort((a, b) => a.timestamp - b.timestamp) };
}

export async function readBody(request: IncomingMessage): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > BODY_LIMIT) return null;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The 201 body of a stored submission. */
export const submittedScan = (id: string, createdAt: number, scan: Submission) => ({
  id,
  created_at: new Date(createdAt).toISOString(),
  tool: scan.tool,
  action: scan.action,
  tokens: scan.tokens,
  status: 'completed',
  violations: [],
  organization_id: null,
  source: 'submitted',
});

/**
 * The request's submission, or null once an error was answered: route, token, body size, JSON,
 * fields, in that order, as the real server checks them.
 */
export async function readSubmission(
  request: IncomingMessage,
  response: ServerResponse,
  token: Buffer,
): Promise<Submission | null> {
  if (request.method !== 'POST' || request.url !== '/v1/scans') return refuse(response, 404, 'not_found');
  if (!authorized(request, token)) return refuse(response, 401, 'unauthorized');
  const text = await readBody(request);
  if (text === null) return refuse(response, 413, 'payload_too_large');
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return refuse(response, 400, 'invalid_json');
  }
  return validate(body) ?? refuse(response, 400, 'validation_failed');
}

function refuse(response: ServerResponse, status: number, error: string): null {
  sendJson(response, status, { error });
  return null;
}

/**
 * The baselines' server: each valid submission stored by `save` (one transaction) under a new
 * id, with its timeline or else one entry for the scan, then 201.
 */
export function submissionServer(
  token: Buffer,
  save: (id: string, createdAt: number, scan: Submission, timeline: readonly Entry[]) => void | Promise<void>,
): Server {
  return createServer((request, response) => {
    void (async () => {
      const scan = await readSubmission(request, response, token);
      if (!scan) return;
      const createdAt = Date.now();
      const timeline = scan.timeline ?? [{ timestamp: createdAt, action: scan.action, tokens: scan.tokens }];
      const id = newId('scan');
      await save(id, createdAt, scan, timeline);
      sendJson(response, 201, submittedScan(id, createdAt, scan), { Location: `/v1/scans/${id}` });
    })().catch((error: unknown) => {
      process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      if (!response.headersSent) sendJson(response, 500, { error: 'internal' });
    });
  });
}
