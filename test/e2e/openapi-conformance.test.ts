/**
 * The served OpenAPI document against the server, read as an outside client reads it:
 * a `scandesk serve` process on a demo store, requests drawn from the document alone with a fixed
 * seed, and for every answer the checks Schemathesis makes:
 *
 * - no 5xx;
 * - the status is one the operation lists (or a range it lists), with a media type listed for it,
 *   and a JSON body the listed schema accepts;
 * - a request the document accepts is not refused for its shape (400, 415, 422). The one allowed
 *   refusal is a rule the schema cannot state, between fields: then the operation's description
 *   must name every field the 400 names (the error details carry them: docs/contract/errors.md#shape);
 * - the request bodies the document gives as examples are accepted;
 * - a request the document refuses is refused (4xx);
 * - without a token, or with an unknown one, 401; a method the path does not list, 405;
 * - the headers a response lists are there; what a 201 names in its Location can be read at once; what a DELETE removed is gone (404).
 *
 * Schemathesis itself cannot be installed here (PyPI is unreachable from these machines), so this
 * is its checks, not its generators: values come from schema-arbitraries.ts, which knows nothing of
 * the server's code. Replay another draw with SCANDESK_CONFORMANCE_SEED=<n>.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invalid, refusal, valid, type Schema } from '../helpers/schema-arbitraries';
import { idKind, type IdKind } from '../helpers/path-ids';
import { cleanupProcesses, makeTempDir, runCli, startServe, type ServeProcess } from '../helpers/serve-process';

const SEED = Number(process.env.SCANDESK_CONFORMANCE_SEED ?? 20_261_125);
/** Requests per operation and phase: about 4,500 in all, under a minute on each backend. */
const RUNS = Number(process.env.SCANDESK_CONFORMANCE_RUNS ?? 60);

interface MediaType {
  schema?: Schema;
  examples?: Record<string, { value: unknown }>;
}
interface ResponseSpec {
  content?: Record<string, MediaType>;
  headers?: Record<string, unknown>;
}
interface Parameter {
  in: 'path' | 'query' | 'header';
  name: string;
  required?: boolean;
  schema: Schema;
}
interface OperationSpec {
  summary?: string;
  description?: string;
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content: Record<string, MediaType> };
  responses: Record<string, ResponseSpec>;
}
interface Operation {
  method: string;
  path: string;
  spec: OperationSpec;
}

interface Request {
  method: string;
  url: string;
  body?: { type: string; bytes: Buffer } | undefined;
  token?: string | null;
}
interface Answer {
  status: number;
  type: string | null;
  location: string | null;
  headers: Headers;
  text: string;
}

const pools: Record<IdKind, string[]> = { organization: [], team: [], scan: [], user: [] };

let server: ServeProcess;
let operations: Operation[];
/** One evidence package of a demo scan: the import's one body that is a package. */
let evidencePackage: Buffer;

const label = (operation: Operation): string => `${operation.method.toUpperCase()} ${operation.path}`;

async function send(request: Request): Promise<Answer> {
  // The owner's token as the data directory has it now: a drawn rotation of the owner's tokens
  // writes the new one there.
  const token =
    request.token === undefined ? readFileSync(join(server.dataDir, 'token'), 'utf8').trim() : request.token;
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  if (request.body) headers['content-type'] = request.body.type;
  const controller = new AbortController();
  const response = await fetch(server.url + request.url, {
    method: request.method.toUpperCase(),
    headers,
    ...(request.body ? { body: new Uint8Array(request.body.bytes) } : {}),
    signal: controller.signal,
    redirect: 'manual',
  });
  const type = response.headers.get('content-type');
  const location = response.headers.get('location');
  // An event stream never ends: its status and type are all there is to check.
  if (type?.startsWith('text/event-stream')) {
    controller.abort();
    return { status: response.status, type, location, headers: response.headers, text: '' };
  }
  return { status: response.status, type, location, headers: response.headers, text: await response.text() };
}

/** What is wrong with an answer as the document describes the operation; empty when nothing is. */
function answerProblems(operation: Operation, answer: Answer): string[] {
  const problems: string[] = [];
  if (answer.status >= 500) problems.push(`server error ${answer.status}: ${answer.text.slice(0, 300)}`);
  const { responses } = operation.spec;
  const documented =
    responses[String(answer.status)] ?? responses[`${String(answer.status)[0]}XX`] ?? responses.default;
  if (!documented) return [...problems, `status ${answer.status} is not documented`];
  // Every header the document lists for a response is one the server sets.
  for (const header of Object.keys(documented.headers ?? {})) {
    if (!answer.headers.has(header)) problems.push(`status ${answer.status} without its documented ${header} header`);
  }
  if (answer.text === '' && answer.status === 204) return problems;
  const media = answer.type?.split(';')[0]!.trim().toLowerCase() ?? null;
  const listed = Object.keys(documented.content ?? {});
  if (media === null || !listed.includes(media)) {
    return [
      ...problems,
      `status ${answer.status} answered ${answer.type ?? 'no content type'}; documented: ${listed.join(', ') || 'no body'}`,
    ];
  }
  const schema = documented.content![media]!.schema;
  if (media === 'application/json' && schema) {
    let body: unknown;
    try {
      body = JSON.parse(answer.text);
    } catch {
      return [...problems, `status ${answer.status}: the body is not JSON`];
    }
    const why = refusal(schema, body);
    if (why)
      problems.push(
        `status ${answer.status}: the body does not fit the documented schema, ${why}: ${answer.text.slice(0, 300)}`,
      );
  }
  return problems;
}

/** The GET operation whose path template `url` fits, if the document has one. */
function getOperationFor(url: string): Operation | undefined {
  const path = url.split('?')[0]!;
  return operations.find(
    (operation) =>
      operation.method === 'get' && new RegExp(`^${operation.path.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(path),
  );
}

/**
 * Schemathesis's stateful checks, on the links the answers give: a resource a 201 names in its
 * Location can be read at once, and one a DELETE removed is gone (404).
 */
async function followUpProblems(request: Request, answer: Answer): Promise<string[]> {
  const created = answer.status === 201 && answer.location !== null;
  const deleted = request.method === 'delete' && answer.status === 204;
  const url = created ? answer.location! : request.url;
  const reader = (created || deleted) && getOperationFor(url);
  if (!reader) return [];
  const read = await send({ method: 'get', url });
  const expected = created ? 200 : 404;
  const problems = answerProblems(reader, read);
  if (read.status !== expected) {
    const kind = created ? 'what a 201 created cannot be read' : 'what a DELETE removed can still be read';
    problems.push(`${kind}: GET ${url} answered ${read.status}, not ${expected}`);
  }
  return problems;
}

/** Refusals of a request the schema accepts are allowed only for rules the operation's text states. */
function refusalProblem(operation: Operation, answer: Answer): string | null {
  if (![400, 413, 415, 422].includes(answer.status)) return null;
  if (answer.status === 400) {
    const details = (JSON.parse(answer.text) as { error: { details?: { field?: string }[] } }).error.details ?? [];
    const fields = details.map((detail) => detail.field).filter((field): field is string => field !== undefined);
    const text = `${operation.spec.summary ?? ''} ${operation.spec.description ?? ''}`;
    if (fields.length > 0 && fields.every((field) => text.includes(`\`${field}\``))) return null;
  }
  return `a request the document accepts was refused with ${answer.status}: ${answer.text.slice(0, 300)}`;
}

/** Ids that exist now: what destructive operations removed is gone from the pools too. */
async function refillPools(): Promise<void> {
  const get = async <T>(url: string): Promise<T> => JSON.parse((await send({ method: 'get', url })).text) as T;
  pools.scan = (await get<{ scans: { id: string }[] }>('/v1/scans?limit=20')).scans.map((scan) => scan.id);
  pools.user = (await get<{ users: { id: string }[] }>('/v1/users')).users.map((user) => user.id);
  pools.organization = (await get<{ organizations: { id: string }[] }>('/v1/organizations')).organizations.map(
    (organization) => organization.id,
  );
  pools.team = [];
  for (const organization of pools.organization) {
    const { teams } = await get<{ teams: { id: string }[] }>(`/v1/organizations/${organization}/teams`);
    pools.team.push(...teams.map((team) => team.id));
  }
}

const asText = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value));

/** A request of `operation` as the document allows it, or with one part the document refuses. */
function requests(operation: Operation, broken: boolean): fc.Arbitrary<Request | null> {
  const parameters = operation.spec.parameters ?? [];
  const parts = parameters.map((parameter) => {
    const kind = parameter.in === 'path' ? idKind(operation.path, parameter.name) : null;
    const existing = kind && pools[kind].length > 0 ? [fc.constantFrom(...pools[kind])] : [];
    const good = fc.oneof(...existing, ...existing, valid(parameter.schema));
    return { parameter, good, bad: invalid(parameter.schema, true) };
  });
  const body = requestBody(operation);
  const breakable = [
    ...parts.flatMap((part, index) => (part.bad ? [{ kind: 'parameter' as const, index }] : [])),
    ...(body?.bad ? [{ kind: 'body' as const, index: 0 }] : []),
  ];
  if (broken && breakable.length === 0) return fc.constant(null);
  return fc
    .record({
      target: broken ? fc.constantFrom(...breakable) : fc.constant(null),
      values: fc.tuple(...parts.map((part) => fc.tuple(part.good, part.bad ?? fc.constant(undefined), fc.boolean()))),
      body: body ? fc.tuple(body.good, body.bad ?? fc.constant(undefined)) : fc.constant(null),
    })
    .map(({ target, values, body: bodies }) => {
      let path = operation.path;
      const query = new URLSearchParams();
      parts.forEach(({ parameter }, index) => {
        const [good, bad, present] = values[index]!;
        const breakIt = target?.kind === 'parameter' && target.index === index;
        if (!breakIt && !parameter.required && !present) return;
        const text = asText(breakIt ? bad : good);
        if (parameter.in === 'path') path = path.replace(`{${parameter.name}}`, encodeURIComponent(text));
        else query.append(parameter.name, text);
      });
      const search = query.size > 0 ? `?${query.toString()}` : '';
      const chosen = bodies && (target?.kind === 'body' ? bodies[1] : bodies[0]);
      return { method: operation.method, url: path + search, body: chosen ?? undefined };
    });
}

interface BodyArbitraries {
  good: fc.Arbitrary<Request['body']>;
  bad: fc.Arbitrary<Request['body']> | null;
}

function requestBody(operation: Operation): BodyArbitraries | null {
  const content = operation.spec.requestBody?.content;
  if (!content) return null;
  if (content['application/zip']) {
    return {
      good: fc.constant({ type: 'application/zip', bytes: evidencePackage }),
      bad: null,
    };
  }
  const schema = content['application/json']?.schema;
  if (!schema) throw new Error(`${label(operation)}: a request body of an unknown type`);
  const json = (value: unknown): Request['body'] => ({
    type: 'application/json',
    bytes: Buffer.from(JSON.stringify(value)),
  });
  const bad = invalid(schema, false);
  return { good: valid(schema).map(json), bad: bad && bad.map(json) };
}

/** Destructive operations last, so that the rest meet the demo store's resources. */
const destructiveLast = (a: Operation, b: Operation): number =>
  Number(a.method === 'delete') - Number(b.method === 'delete');

/** Problems by operation and kind (the problem's first words), each with its count and first request. */
const failures = new Map<string, { count: number; example: string }>();
function record(operation: Operation, request: Request, problems: readonly string[]): void {
  const body = request.body ? ` with ${request.body.bytes.toString('utf8').slice(0, 300)}` : '';
  for (const problem of problems) {
    const kind = `${label(operation)}: ${problem.split(':')[0]}`;
    const seen = failures.get(kind);
    if (seen) seen.count += 1;
    else
      failures.set(kind, { count: 1, example: `${problem}\n  ${request.method.toUpperCase()} ${request.url}${body}` });
  }
}
/** What the failures were, one line per kind with its first example: empty when there were none. */
function report(): string[] {
  const lines = [...failures].map(([kind, { count, example }]) => `${count}× ${kind}\n  ${example}`);
  failures.clear();
  return lines;
}

beforeAll(async () => {
  const dataDir = makeTempDir();
  const demo = await runCli(['demo', '--data-dir', dataDir, '--scans', '200', '--seed', '16'], { timeoutMs: 60_000 });
  expect(demo.code, demo.stderr).toBe(0);
  server = await startServe({ dataDir });
  const document = JSON.parse((await send({ method: 'get', url: '/v1/openapi.json' })).text) as {
    paths: Record<string, Record<string, OperationSpec>>;
  };
  operations = Object.entries(document.paths)
    .flatMap(([path, methods]) => Object.entries(methods).map(([method, spec]) => ({ method, path, spec })))
    .sort(destructiveLast);
  await refillPools();
  const download = await fetch(`${server.url}/v1/scans/${pools.scan[0]}/evidence/download`, {
    headers: { authorization: `Bearer ${server.token}` },
  });
  evidencePackage = Buffer.from(await download.arrayBuffer());
}, 120_000);

afterAll(cleanupProcesses);

describe('the OpenAPI document, as an outside client reads it', () => {
  it('answers every operation as documented for requests the document accepts', async () => {
    let index = 0;
    for (const operation of operations) {
      await refillPools();
      for (const request of fc.sample(requests(operation, false), { seed: SEED + index++, numRuns: RUNS })) {
        const answer = await send(request!);
        const refusal = refusalProblem(operation, answer);
        const followUp = await followUpProblems(request!, answer);
        record(operation, request!, [...answerProblems(operation, answer), ...(refusal ? [refusal] : []), ...followUp]);
      }
    }
    expect(report()).toEqual([]);
  }, 300_000);

  it('accepts the examples the document gives, as documented', async () => {
    await refillPools();
    let examples = 0;
    for (const operation of operations) {
      const content = operation.spec.requestBody?.content['application/json'];
      if (!content?.examples) continue;
      const [request] = fc.sample(requests(operation, false), { seed: SEED, numRuns: 1 });
      for (const { value } of Object.values(content.examples)) {
        examples += 1;
        const body = { type: 'application/json', bytes: Buffer.from(JSON.stringify(value)) };
        const answer = await send({ ...request!, body });
        const refused =
          answer.status >= 300 ? [`a documented example was answered ${answer.status}: ${answer.text}`] : [];
        record(operation, { ...request!, body }, [...answerProblems(operation, answer), ...refused]);
      }
    }
    expect(examples).toBeGreaterThan(0);
    expect(report()).toEqual([]);
  }, 120_000);

  it('refuses requests the document refuses, as documented', async () => {
    let index = 0;
    for (const operation of operations) {
      await refillPools();
      for (const request of fc.sample(requests(operation, true), { seed: SEED + 1000 + index++, numRuns: RUNS })) {
        if (!request) break;
        const answer = await send(request);
        const accepted = answer.status < 400 ? [`a request the document refuses was answered ${answer.status}`] : [];
        record(operation, request, [...answerProblems(operation, answer), ...accepted]);
      }
    }
    expect(report()).toEqual([]);
  }, 300_000);

  it('answers 401, as documented, to every operation without a token or with an unknown one', async () => {
    await refillPools();
    for (const operation of operations) {
      const [request] = fc.sample(requests(operation, false), { seed: SEED, numRuns: 1 });
      const isPublic =
        !operation.path.startsWith('/v1/') || ['/v1/openapi.json', '/v1/identity'].includes(operation.path);
      for (const token of [null, 'sdt_not_a_token_anyone_has']) {
        const answer = await send({ ...request!, token });
        const wrong = !isPublic && answer.status !== 401 ? [`with token ${token}: ${answer.status}, not 401`] : [];
        record(operation, request!, [...answerProblems(operation, answer), ...wrong]);
      }
    }
    expect(report()).toEqual([]);
  }, 120_000);

  it('refuses a missing or mistyped body as documented', async () => {
    await refillPools();
    for (const operation of operations.filter((each) => each.spec.requestBody?.required)) {
      const [request] = fc.sample(requests(operation, false), { seed: SEED, numRuns: 1 });
      const listed = Object.keys(operation.spec.requestBody!.content);
      const wrongType = listed.includes('application/json') ? 'text/plain' : 'application/json';
      for (const body of [undefined, { type: wrongType, bytes: request!.body!.bytes }]) {
        const answer = await send({ ...request!, body });
        const accepted =
          answer.status < 400
            ? [`a request without its ${listed.join(' or ')} body was answered ${answer.status}`]
            : [];
        record(operation, { ...request!, body }, [...answerProblems(operation, answer), ...accepted]);
      }
    }
    expect(report()).toEqual([]);
  }, 120_000);

  it('answers 405, naming the allowed methods, to a method the document does not list for a path', async () => {
    const methods = ['get', 'put', 'post', 'delete', 'patch'];
    for (const path of new Set(operations.map((operation) => operation.path))) {
      const listed = new Set(
        operations.filter((operation) => operation.path === path).map((operation) => operation.method),
      );
      const sample = operations.find((operation) => operation.path === path)!;
      const [request] = fc.sample(requests(sample, false), { seed: SEED, numRuns: 1 });
      for (const method of methods.filter((each) => !listed.has(each))) {
        const answer = await send({ method, url: request!.url });
        if (answer.status !== 405)
          failures.set(`${method.toUpperCase()} ${path}`, { count: 1, example: `answered ${answer.status}, not 405` });
      }
    }
    expect(report()).toEqual([]);
  }, 120_000);
});
