import { X509Certificate } from 'node:crypto';
import type { CreateRemoteBody, Remote, RemoteTestResult, UpdateRemoteBody } from '../../../shared/api/remotes';
import type { SyncSummary } from '../../../shared/api/sync';
import { formatTimestamp } from '../../../shared/time';
import { type Db, type Executor, inTransaction, type RemoteRow, type RemoteUpdate } from '../../db/index';
import { conflict, DomainError, forbidden, notFound } from '../../domain-error';
import { LOCAL_ORIGIN } from '../../../shared/api/origins';
import { newId } from '../../ids';
import { RemoteClient, type RemoteTimeouts } from '../client/remote-client';
import { RemoteError, RemoteRefused, RemoteUnreachable, RemoteUntrusted } from '../client/remote-errors';
import { countQueued } from '../push/push-queue.repository';
import { readRemoteToken, removeRemoteToken, writeRemoteToken } from './remote-token-file';
import { checkRemoteUrl } from './remote-url';
import * as repo from './remotes.repository';

/** Who may manage remotes: the workspace owner alone (docs/contract/api.md#remotes). */
export function requireWorkspaceOwner(caller: { is_workspace_owner: number }): void {
  if (!caller.is_workspace_owner) throw forbidden('only the workspace owner may manage remotes');
}

/** A `test` should answer while a person waits: shorter than a sync's timeouts. */
const TEST_TIMEOUTS: Partial<RemoteTimeouts> = { headersMs: 15_000, jsonTotalMs: 30_000 };

function needDataDir(dataDir: string | undefined): string {
  if (dataDir === undefined) throw conflict('this server has no data directory to keep remote tokens in');
  return dataDir;
}

function parseSummary(json: string | null): SyncSummary | null {
  if (json === null) return null;
  try {
    return JSON.parse(json) as SyncSummary;
  } catch {
    return null;
  }
}

/** The API's view of a remote row: never its token, which is not in the row anyway. */
export function toRemote(row: RemoteRow): Remote {
  return {
    id: row.id,
    name: row.name,
    url: row.url,
    kind: row.kind,
    remote_user_id: row.remote_user_id,
    ca_pem: row.ca_pem,
    allow_insecure_http: row.allow_insecure_http === 1,
    background: row.background === 1,
    interval_minutes: row.interval_minutes,
    push_since: formatTimestamp(row.push_since),
    created_at: formatTimestamp(row.created_at),
    last_sync_at: row.last_sync_at === null ? null : formatTimestamp(row.last_sync_at),
    last_sync: parseSummary(row.last_sync),
  };
}

function checkedUrl(url: string, allowInsecureHttp: boolean, field: string): string {
  const check = checkRemoteUrl(url, allowInsecureHttp);
  if (check.ok) return check.url;
  const message = field === 'url' ? `url ${check.reason}` : `url ${check.reason} (allow_insecure_http is false)`;
  throw new DomainError('validation_failed', message, [{ field, message: check.reason }]);
}

/** A PEM that is not a certificate would only fail later, at every sync, as "not trusted". */
function checkedCaPem(pem: string): string {
  try {
    if (!pem.includes('-----BEGIN CERTIFICATE-----')) throw new Error('no certificate');
    new X509Certificate(pem);
  } catch {
    const message = 'must be one or more PEM certificates (-----BEGIN CERTIFICATE-----)';
    throw new DomainError('validation_failed', `ca_pem ${message}`, [{ field: 'ca_pem', message }]);
  }
  return pem;
}

async function findByName(db: Executor, name: string): Promise<RemoteRow> {
  const row = await repo.findRemoteByName(db, name);
  if (!row) throw notFound('remote');
  return row;
}

/** The remote with what waits to go up to it: nothing ever goes to a plain upstream. */
async function withPendingPush(db: Db, row: RemoteRow): Promise<Remote> {
  return { ...toRemote(row), pending_push: row.kind === 'upstream' ? 0 : await countQueued(db, row) };
}

export async function listRemotes(db: Db): Promise<Remote[]> {
  return Promise.all((await repo.listRemotes(db)).map((row) => withPendingPush(db, row)));
}

export async function readRemote(db: Db, name: string): Promise<Remote> {
  return withPendingPush(db, await findByName(db, name));
}

/**
 * The token is written before the row: a crash between leaves an unused file, never a remote
 * without its token. The remote fills the store of the user who adds it (the workspace owner),
 * and pushes their submits from now on, not the ones made before it existed.
 */
export async function createRemote(
  db: Db,
  dataDir: string | undefined,
  userId: string,
  body: CreateRemoteBody,
): Promise<Remote> {
  // `local` names what was made here in an origin filter (docs/contract/api.md#origins).
  if (body.name === LOCAL_ORIGIN) {
    const message = 'must not be `local`, which names the scans made here';
    throw new DomainError('validation_failed', `name ${message}`, [{ field: 'name', message }]);
  }
  const dir = needDataDir(dataDir);
  const allowInsecureHttp = body.allow_insecure_http ?? false;
  const url = checkedUrl(body.url, allowInsecureHttp, 'url');
  const caPem = body.ca_pem === undefined ? null : checkedCaPem(body.ca_pem);
  if (await repo.findRemoteByName(db, body.name)) throw conflict('a remote of that name exists already');
  const id = newId('remote');
  const now = Date.now();
  await writeRemoteToken(dir, id, body.token);
  try {
    return await inTransaction(db, async (trx) => {
      if (await repo.findRemoteByName(trx, body.name)) throw conflict('a remote of that name exists already');
      await repo.insertRemote(trx, {
        id,
        name: body.name,
        url,
        user_id: userId,
        kind: null,
        remote_user_id: null,
        ca_pem: caPem,
        allow_insecure_http: allowInsecureHttp ? 1 : 0,
        background: (body.background ?? true) ? 1 : 0,
        ...(body.interval_minutes === undefined ? {} : { interval_minutes: body.interval_minutes }),
        push_since: now,
        created_at: now,
      });
      return toRemote((await repo.findRemoteById(trx, id))!);
    });
  } catch (error) {
    await removeRemoteToken(dir, id);
    throw error;
  }
}

/**
 * Another URL may be another server: what the remote was (kind, user) is found again by the next
 * test or sync, and the pull starts over (pulled scans it finds again are `unchanged`).
 */
export async function updateRemote(
  db: Db,
  dataDir: string | undefined,
  name: string,
  body: UpdateRemoteBody,
): Promise<Remote> {
  const current = await findByName(db, name);
  const changes: RemoteUpdate = {};
  const allowInsecureHttp = body.allow_insecure_http ?? current.allow_insecure_http === 1;
  if (body.url !== undefined || body.allow_insecure_http !== undefined) {
    const url = checkedUrl(
      body.url ?? current.url,
      allowInsecureHttp,
      body.url === undefined ? 'allow_insecure_http' : 'url',
    );
    if (url !== current.url) Object.assign(changes, { url, kind: null, remote_user_id: null, cursor: null });
    changes.allow_insecure_http = allowInsecureHttp ? 1 : 0;
  }
  if (body.ca_pem !== undefined) changes.ca_pem = body.ca_pem === null ? null : checkedCaPem(body.ca_pem);
  if (body.background !== undefined) changes.background = body.background ? 1 : 0;
  if (body.interval_minutes !== undefined) changes.interval_minutes = body.interval_minutes;
  if (body.token !== undefined) await writeRemoteToken(needDataDir(dataDir), current.id, body.token);
  return inTransaction(db, async (trx) => {
    const row = await findByName(trx, name);
    // Renamed away and back, or removed, since it was read: the id says whether it is still the one.
    if (row.id !== current.id) throw notFound('remote');
    await repo.updateRemote(trx, row.id, changes);
    return toRemote((await repo.findRemoteById(trx, row.id))!);
  });
}

/** Refused while a sync holds the remote; what was pulled stays, as local data. */
export async function deleteRemote(db: Db, dataDir: string | undefined, name: string): Promise<void> {
  const removed = await inTransaction(db, async (trx) => {
    const row = await findByName(trx, name);
    if (row.lease_until !== null && row.lease_until > Date.now()) {
      throw conflict('a sync with this remote is running; remove it when the sync has ended');
    }
    await repo.deleteRemote(trx, row.id);
    return row;
  });
  if (dataDir !== undefined) await removeRemoteToken(dataDir, removed.id);
}

/** A client for the remote, with its token from the data directory (what the sync engine uses). */
export async function openRemoteClient(
  dataDir: string | undefined,
  remote: RemoteRow,
  timeouts?: Partial<RemoteTimeouts>,
): Promise<RemoteClient> {
  const token = await readRemoteToken(needDataDir(dataDir), remote.id);
  if (token === null) {
    throw conflict(`remote ${remote.name} has no token: set one with \`scandesk remote add\` again or PATCH its token`);
  }
  return new RemoteClient({ url: remote.url, token, caPem: remote.ca_pem, ...(timeouts ? { timeouts } : {}) });
}

/** What kind of failure reached the remote, for a client to branch on (the message says it to a person). */
function failureKind(error: RemoteError): string {
  if (error instanceof RemoteUnreachable) return 'unreachable';
  if (error instanceof RemoteUntrusted) return 'untrusted';
  if (error instanceof RemoteRefused) return 'refused';
  return 'broken';
}

/** A remote's failure as this server's answer: 502, its sentence, and its kind as the one detail. */
export function remoteFailure(error: unknown): unknown {
  if (!(error instanceof RemoteError)) return error;
  return new DomainError('bad_gateway', error.message, [{ message: failureKind(error) }]);
}

const isCount = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/**
 * Reaches the remote with its token and says what is there: its kind, the remote user (a Scandesk
 * remote), how many organizations and scans that user sees. What it learned is saved on the row.
 */
export async function testRemote(db: Db, dataDir: string | undefined, name: string): Promise<RemoteTestResult> {
  const remote = await findByName(db, name);
  const client = await openRemoteClient(dataDir, remote, TEST_TIMEOUTS);
  let result: RemoteTestResult;
  try {
    const probe = await client.probeKind();
    const { organizations } = await client.getJson(
      '/v1/organizations',
      undefined,
      (value): value is { organizations: unknown[] } => isObject(value) && Array.isArray(value.organizations),
    );
    if (probe.kind === 'scandesk') {
      const me = await client.getJson(
        '/v1/me',
        undefined,
        (value): value is { id: string } => isObject(value) && typeof value.id === 'string',
      );
      result = { kind: 'scandesk', remote_user_id: me.id, organizations: organizations.length, scans: probe.scans };
    } else {
      const list = await client.getJson(
        '/v1/scans',
        { limit: 1 },
        (value): value is { total: number } => isObject(value) && isCount(value.total),
      );
      result = { kind: 'upstream', organizations: organizations.length, scans: list.total };
    }
  } catch (error) {
    throw remoteFailure(error);
  } finally {
    await client.destroy();
  }
  await inTransaction(db, async (trx) => {
    const row = await repo.findRemoteById(trx, remote.id);
    // Changed since (another URL, removed): what this test learned is about a server it no longer names.
    if (!row || row.url !== remote.url) return;
    const changes: RemoteUpdate = { kind: result.kind, remote_user_id: result.remote_user_id ?? null };
    // A feed cursor means nothing to an upstream pull, nor the other way round.
    if (row.kind !== null && row.kind !== result.kind) changes.cursor = null;
    await repo.updateRemote(trx, row.id, changes);
  });
  return result;
}
