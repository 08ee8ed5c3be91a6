import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SyncEvent, SyncSummary } from '../../shared/api/sync';
import type { Db, RemoteRow } from '../db/index';
import { conflict, DomainError } from '../domain-error';
import { DEFAULT_IMPORT_LIMITS, type ImportLimits } from '../evidence/import/import-limits';
import { RemoteClient, type RemoteTimeouts } from './client/remote-client';
import { RemoteError, RemoteRefused, RemoteUnreachable, RemoteUntrusted } from './client/remote-errors';
import { checkConvergence } from './digest/convergence';
import { mirrorOrganizations } from './pull/mirror-organizations';
import { pullFromScandesk } from './pull/scandesk-pull';
import { pullFromUpstream } from './pull/upstream-pull';
import { countQueued } from './push/push-queue.repository';
import { pushScans } from './push/push';
import { readRemoteToken } from './remotes/remote-token-file';
import { SyncProgress, type SyncContext } from './sync-context';
import {
  countKnownRemoteScans,
  leaseHolder,
  LeaseLost,
  releaseLease,
  renewLease,
  saveLastSync,
  saveRemoteKind,
  takeLease,
  takeOverLease,
} from './sync-state.repository';
import { SyncTally } from './sync-tally';

// One sync run of one remote (docs/sync.md, README.md here): the lease on the remote row, then
// the stages in order — reach the remote (what kind it is), mirror its organizations, settle
// pushes whose answer was lost, pull, push — then the summary, saved on the remote row whatever
// happened. A stage that fails is named in the summary and the next one still runs, unless the
// remote (or the lease) was lost: then the run ends `partial`, or `unreachable` when the remote
// was never reached.

/** What a run needs besides the remote. */
export interface SyncDeps {
  db: Db;
  /** Where the remote's token file is. */
  dataDir: string;
  limits?: ImportLimits;
  timeouts?: Partial<RemoteTimeouts>;
  /** How long the lease holds without renewal; renewed at a third of it while the run goes on. */
  leaseMs?: number;
}

export const DEFAULT_LEASE_MS = 60_000;

/**
 * Whether a lease holder (`host:pid:nonce`) is a process of this machine that no longer runs.
 * Signal 0 checks a process exists without touching it; EPERM means it exists (another user's).
 */
export function leaseHolderIsDead(holder: string): boolean {
  const [host, pidText] = holder.split(':');
  const pid = Number(pidText);
  if (host !== hostname() || !Number.isSafeInteger(pid) || pid <= 0 || pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/** A run that holds its remote's lease and has not started its stages. */
export interface ClaimedSync {
  run(emit: (event: SyncEvent) => void, signal: AbortSignal): Promise<SyncSummary>;
}

/** A lost remote or lease: no later stage can do anything. */
class StopRun extends Error {}

/** Which stage a failure ends (StopRun) and which it only names in the summary. */
function stageFailure(ctx: SyncContext, what: string, error: unknown): void {
  const { tally } = ctx;
  if (ctx.signal.aborted) {
    tally.stop = 'interrupted';
    tally.problem(what, 'the sync was stopped (the server is closing, or the lease was lost); the next sync goes on');
    throw new StopRun();
  }
  const message = error instanceof Error ? error.message : String(error);
  tally.problem(what, message);
  const lost =
    error instanceof RemoteUnreachable ||
    error instanceof RemoteUntrusted ||
    error instanceof LeaseLost ||
    (error instanceof RemoteRefused && (error.status === 401 || error.status === 403)) ||
    !(error instanceof RemoteError || error instanceof DomainError);
  if (lost) {
    tally.stop = 'interrupted';
    throw new StopRun();
  }
}

async function stages(ctx: SyncContext): Promise<void> {
  const { tally } = ctx;
  try {
    const probe = await ctx.client.probeKind();
    if (probe.kind !== ctx.remote.kind) {
      await saveRemoteKind(ctx.db, ctx.remote.id, probe.kind);
      ctx.remote = { ...ctx.remote, kind: probe.kind };
    }
  } catch (error) {
    if (ctx.signal.aborted) throw error;
    tally.stop = 'unreachable';
    tally.problem('remote', error instanceof Error ? error.message : String(error));
    return;
  }
  let organizations;
  try {
    organizations = await mirrorOrganizations(ctx);
  } catch (error) {
    stageFailure(ctx, 'organizations', error);
  }
  try {
    await pushScans(ctx, true);
  } catch (error) {
    stageFailure(ctx, 'push', error);
  }
  // Without the mirrors, scans would be placed in no organization: the pull waits for the next run.
  if (organizations) {
    const placement = { remoteId: ctx.remote.id, userId: ctx.remote.user_id, organizations };
    try {
      if (ctx.remote.kind === 'scandesk') {
        const visible = await pullFromScandesk(ctx, placement);
        tally.gone = Math.max(0, (await countKnownRemoteScans(ctx.db, ctx.remote.id)) - visible);
      } else {
        await pullFromUpstream(ctx, placement);
      }
    } catch (error) {
      stageFailure(ctx, 'pull', error);
    }
  }
  try {
    await pushScans(ctx);
  } catch (error) {
    stageFailure(ctx, 'push', error);
  }
  if (ctx.remote.kind === 'scandesk') {
    try {
      tally.convergence =
        tally.errors.length === 0
          ? await checkConvergence(ctx)
          : { state: 'unchecked', why: 'the sync was partial', days: [], differing_days: 0 };
    } catch (error) {
      stageFailure(ctx, 'check', error);
    }
  }
}

/**
 * Takes the remote's lease for this process; a run elsewhere holding it is a 409. The lease is
 * renewed while the run goes on; a renewal that finds it taken (this process stalled past the
 * deadline) stops the run, and the cursor writes it would still make are refused.
 */
export async function claimSync(deps: SyncDeps, remote: RemoteRow): Promise<ClaimedSync> {
  const leaseMs = deps.leaseMs ?? DEFAULT_LEASE_MS;
  const owner = `${hostname()}:${process.pid}:${randomBytes(6).toString('hex')}`;
  const now = Date.now();
  if (!(await takeLease(deps.db, remote.id, owner, now, now + leaseMs))) {
    // A process of this machine that died mid-run (SIGKILL, a crash) left its lease: no need to
    // wait for its deadline. Another machine's holder is trusted until its deadline passes.
    const holder = await leaseHolder(deps.db, remote.id);
    const dead = holder !== null && leaseHolderIsDead(holder);
    if (!dead || !(await takeOverLease(deps.db, remote.id, holder, owner, now + leaseMs))) {
      throw conflict(`a sync of ${remote.name} is running in another process; try again when it ends`);
    }
  }
  return {
    run: (emit, signal) => runClaimed(deps, remote, owner, leaseMs, emit, signal),
  };
}

async function runClaimed(
  deps: SyncDeps,
  remote: RemoteRow,
  owner: string,
  leaseMs: number,
  emit: (event: SyncEvent) => void,
  outer: AbortSignal,
): Promise<SyncSummary> {
  const { db } = deps;
  const startedAt = Date.now();
  const tally = new SyncTally();
  const stop = new AbortController();
  const signal = AbortSignal.any([outer, stop.signal]);
  const renewal = setInterval(() => {
    renewLease(db, remote.id, owner, Date.now() + leaseMs).then(
      (held) => held || stop.abort(new LeaseLost('the sync lost its lease on the remote')),
      () => undefined,
    );
  }, leaseMs / 3);
  let client: RemoteClient | undefined;
  let workDir: string | undefined;
  let current: SyncContext | undefined;
  try {
    const token = await readRemoteToken(deps.dataDir, remote.id);
    if (token === null) {
      tally.stop = 'unreachable';
      tally.problem(
        'remote',
        `no token for ${remote.name}: give it one (scandesk remote add, or the viewer's Settings)`,
      );
    } else {
      client = new RemoteClient({ url: remote.url, token, caPem: remote.ca_pem, timeouts: deps.timeouts });
      workDir = await mkdtemp(join(tmpdir(), 'scandesk-sync-'));
      const ctx: SyncContext = {
        db,
        remote,
        client,
        leaseOwner: owner,
        limits: deps.limits ?? DEFAULT_IMPORT_LIMITS,
        workDir,
        tally,
        progress: new SyncProgress(emit),
        signal,
      };
      current = ctx;
      await stages(ctx);
    }
  } catch (error) {
    // A lost remote or lease was named where it happened; anything else is named here.
    if (!(error instanceof StopRun)) {
      tally.stop = 'interrupted';
      tally.problem('sync', error instanceof Error ? error.message : String(error));
    }
  }
  try {
    // What still waits to go up, however far the run got (a plain upstream takes no pushes).
    if (current?.remote.kind === 'scandesk') {
      tally.pushed.waiting = await countQueued(db, current.remote).catch(() => tally.pushed.waiting);
    }
    const summary = tally.summary(remote.name, startedAt, Date.now());
    await saveLastSync(db, remote.id, JSON.stringify(summary), Date.now()).catch(() => undefined);
    return summary;
  } finally {
    clearInterval(renewal);
    await client?.destroy().catch(() => undefined);
    if (workDir) await rm(workDir, { recursive: true, force: true });
    await releaseLease(db, remote.id, owner).catch(() => undefined);
  }
}
