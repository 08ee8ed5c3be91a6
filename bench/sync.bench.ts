/**
 * Sync (docs/sync.md): a laptop (`serve` on SQLite) with a team server (`serve` on PostgreSQL, a
 * private cluster) as its remote. The initial pull of the team's scans is measured against
 * `scandesk store copy` of the same store into an empty data dir, in the same run; then syncs
 * with nothing new, and one after 1,000 scans were written on the team. A pass-through proxy
 * between the two times the team's answers, so each pull's time is split into the remote's
 * scans answers and feed and the laptop's own work.
 */
import { join } from 'node:path';
import type { SyncEvent, SyncSummary } from '../src/shared/api/sync';
import { createDatabase, startCluster } from '../test/fixtures/postgres-cluster';
import { bearerApi as api } from '../test/fixtures/bearer-api';
import { CpuSampler } from './lib/cpu-time';
import { formatCount } from './lib/format';
import { percentile } from './lib/latency';
import { MB } from './lib/memory';
import { result } from './lib/result';
import { runCommand } from './lib/run-command';
import { BIN, childEnv, ROOT, startServe, type ServeChild } from './lib/serve-child';
import { createTeamStore, ENTRIES_PER_SCAN, TEAM_ORGANIZATION_ID } from './lib/team-fixture';
import { startTimingProxy, type TimingProxy } from './lib/timing-proxy';
import { defineBenchmark, type BenchContext, type Result } from './lib/types';

const NAME = 'sync';
const TEAM_DATABASE = 'bench_sync_team';
const SCANS = { full: 100_000, quick: 10_000 } as const;
const NEW_SCANS = 1_000;
const EMPTY_SYNCS = 30;
const EMPTY_WARMUPS = 3;
const RATIO_TARGET = 0.5;
const EMPTY_P99_TARGET_MS = 200;
const NEW_TARGET_MS = 2_000;

interface SyncRun {
  ms: number;
  summary: SyncSummary;
  /** ms from the request to the first progress event of each phase. */
  phaseStarts: Map<string, number>;
}

/** `POST /v1/remotes/team/sync` on the laptop, its NDJSON read to the summary; fails unless `done`. */
async function syncOnce(laptop: ServeChild): Promise<SyncRun> {
  const started = performance.now();
  const response = await fetch(`${laptop.url}/v1/remotes/team/sync`, {
    method: 'POST',
    headers: { authorization: `Bearer ${laptop.token}` },
  });
  if (!response.ok || !response.body) throw new Error(`sync: ${response.status} ${await response.text()}`);
  const phaseStarts = new Map<string, number>();
  const decoder = new TextDecoder();
  let buffered = '';
  let summary: SyncSummary | undefined;
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    buffered += decoder.decode(chunk, { stream: true });
    let newline: number;
    while ((newline = buffered.indexOf('\n')) >= 0) {
      const line = buffered.slice(0, newline).trim();
      buffered = buffered.slice(newline + 1);
      if (line === '') continue;
      const event = JSON.parse(line) as SyncEvent;
      if (event.type === 'summary') summary = event.summary;
      else if (!phaseStarts.has(event.phase)) phaseStarts.set(event.phase, performance.now() - started);
    }
  }
  const ms = performance.now() - started;
  if (!summary) throw new Error('sync: the stream ended without a summary');
  if (summary.outcome !== 'done') throw new Error(`sync: ${summary.outcome}: ${JSON.stringify(summary.errors)}`);
  return { ms, summary, phaseStarts };
}

/**
 * How a sync's time splits: the remote's answers (timed by the proxy) and the laptop's rest. The
 * pull fetches a page ahead while it stores one, so the laptop's own row is the time with no
 * request to the team under way; its storing that overlaps the remote's answers is hidden in them.
 */
function split(
  proxy: TimingProxy,
  totalMs: number,
): { exportMs: number; feedMs: number; otherRemoteMs: number; localMs: number; text: string } {
  let exportMs = 0;
  let feedMs = 0;
  let otherRemoteMs = 0;
  let exports = 0;
  let pages = 0;
  for (const [route, time] of proxy.times()) {
    if (route === 'POST /v1/sync/scans' || route === 'POST /v1/evidence/exports') {
      exportMs += time.ms;
      exports += time.requests;
    } else if (route === 'GET /v1/sync/changes') {
      feedMs += time.ms;
      pages += time.requests;
    } else otherRemoteMs += time.ms;
  }
  const busyMs = proxy.busyMs();
  const localMs = totalMs - busyMs;
  const share = (ms: number): string => `${(ms / 1000).toFixed(2)} s (${Math.round((100 * ms) / totalMs)} %)`;
  const text =
    `remote scans ${share(exportMs)} in ${exports} answers, feed ${share(feedMs)} in ${pages} pages, ` +
    `other remote calls ${share(otherRemoteMs)}; a request to the team under way ${share(busyMs)}, ` +
    `laptop alone (storing, the rest) ${share(localMs)}`;
  return { exportMs, feedMs, otherRemoteMs, localMs, text };
}

/**
 * The team's database, on a private cluster stopped by `stop`: the benchmark runs in the SQLite
 * run (the laptop's store is what it measures), which has no cluster of its own.
 */
async function teamDatabase(): Promise<{ url: string; stop(): void }> {
  const cluster = await startCluster();
  try {
    return { url: await createDatabase(cluster.adminUrl, TEAM_DATABASE), stop: () => cluster.stop() };
  } catch (error) {
    cluster.stop();
    throw error;
  }
}

export default defineBenchmark({
  name: NAME,
  description: `a laptop (serve, SQLite) pulling a team server's scans (serve, PostgreSQL) against store copy of the same store; empty and ${formatCount(NEW_SCANS)}-scan syncs`,
  async run(context) {
    const database = await teamDatabase();
    try {
      return await measure(context, database.url);
    } finally {
      database.stop();
    }
  },
});

/** CPU seconds of the Node processes `nodes` picks and of the team database's backends, as text and total. */
interface CpuTotals {
  total: number;
  toString(): string;
}

function cpuSamplers(nodes: Record<string, (commandLine: string, pid: number) => boolean>): { stop(): CpuTotals } {
  const groups: [string, CpuSampler][] = [
    ...Object.entries(nodes).map(([name, matches]) => [name, new CpuSampler(matches)] as [string, CpuSampler]),
    ['PostgreSQL', new CpuSampler((line) => line.startsWith(`postgres: `) && line.includes(` ${TEAM_DATABASE} `))],
  ];
  const self = process.cpuUsage();
  return {
    stop() {
      const used = process.cpuUsage(self);
      const parts: [string, number][] = groups.map(([name, sampler]) => [name, sampler.stop() ?? Number.NaN]);
      parts.push(['this process (the proxy)', (used.user + used.system) / 1e6]);
      const total = parts.reduce((sum, [, seconds]) => sum + seconds, 0);
      return {
        total,
        toString: () =>
          `${total.toFixed(1)} s (${parts.map(([name, seconds]) => `${name} ${seconds.toFixed(1)}`).join(', ')})`,
      };
    },
  };
}

async function measure(context: BenchContext, url: string): Promise<Result[]> {
  const scans = context.quick ? SCANS.quick : SCANS.full;
  const teamDir = context.scratch.tempDir('sync-team');
  context.log(`team store: ${formatCount(scans)} scans of ${ENTRIES_PER_SCAN} entries into PostgreSQL`);
  const started = performance.now();
  const team = await createTeamStore(teamDir, url, scans);
  context.log(`  filled in ${((performance.now() - started) / 1000).toFixed(1)} s`);

  context.log('baseline: scandesk store copy from the team database into an empty data dir');
  const copyDir = join(context.scratch.tempDir('sync-copy'), 'data');
  const copyCpu = cpuSamplers({ copy: (line) => line.includes(' store copy ') });
  const copy = await runCommand(
    context.scratch,
    process.execPath,
    [BIN, 'store', 'copy', '--from', url, '--to', copyDir],
    {
      cwd: ROOT,
      env: childEnv(),
    },
  );
  const copyCpuText = copyCpu.stop();
  const copyOwn = /in ([\d.]+) s\n?$/.exec(copy.stdout.trim());
  const copyMs = copy.wallMs;
  await context.scratch.removeDir(join(copyDir, '..'));

  const teamServer = await startServe(context.scratch, teamDir, url);
  const member = await api<{ user: { id: string }; token: string }>(teamServer, teamServer.token, 'POST', '/v1/users', {
    name: 'laptop user',
  });
  await api(
    teamServer,
    teamServer.token,
    'PUT',
    `/v1/organizations/${TEAM_ORGANIZATION_ID}/members/${member.user.id}`,
    {
      role: 'admin',
    },
  );
  const proxy = await startTimingProxy(teamServer.url);
  const laptop = await startServe(context.scratch, context.scratch.tempDir('sync-laptop'));
  try {
    await api(laptop, laptop.token, 'POST', '/v1/remotes', {
      name: 'team',
      url: proxy.url,
      token: member.token,
      background: false,
    });

    context.log(`initial pull of ${formatCount(scans)} scans`);
    proxy.reset();
    const pullCpu = cpuSamplers({
      laptop: (_line, pid) => pid === laptop.pid,
      team: (_line, pid) => pid === teamServer.pid,
    });
    const initial = await laptop.measure(() => syncOnce(laptop));
    const pullCpuText = pullCpu.stop();
    const pull = initial.value;
    if (pull.summary.pulled.new !== scans)
      throw new Error(`initial pull stored ${pull.summary.pulled.new} new scans, not ${scans}`);
    const pullSplit = split(proxy, pull.ms);
    context.log(`  ${(pull.ms / 1000).toFixed(1)} s: ${pullSplit.text}`);
    context.log(`  CPU: pull ${pullCpuText}; store copy ${copyCpuText}`);

    context.log(`${EMPTY_SYNCS} syncs with nothing new (after ${EMPTY_WARMUPS} warm-ups)`);
    for (let i = 0; i < EMPTY_WARMUPS; i++) await syncOnce(laptop);
    const empty: number[] = [];
    for (let i = 0; i < EMPTY_SYNCS; i++) {
      const run = await syncOnce(laptop);
      if (run.summary.pulled.new + run.summary.pulled.changed !== 0) throw new Error('an empty sync pulled something');
      empty.push(run.ms);
    }
    empty.sort((a, b) => a - b);

    context.log(`${formatCount(NEW_SCANS)} new scans on the team, then one sync`);
    await team.addScans(NEW_SCANS);
    proxy.reset();
    const fresh = await syncOnce(laptop);
    if (fresh.summary.pulled.new !== NEW_SCANS)
      throw new Error(`the sync stored ${fresh.summary.pulled.new} new scans, not ${NEW_SCANS}`);
    const freshSplit = split(proxy, fresh.ms);
    context.log(`  ${(fresh.ms / 1000).toFixed(2)} s: ${freshSplit.text}`);

    const copyRate = scans / (copyMs / 1000);
    const pullRate = scans / (pull.ms / 1000);
    const pullPhase = pull.phaseStarts.get('pull');
    return [
      result({
        benchmark: NAME,
        label: `initial pull of ${formatCount(scans)} scans (${ENTRIES_PER_SCAN}-entry timelines), PostgreSQL team → SQLite laptop`,
        metric: 'scans/s',
        value: pullRate,
        baseline: { label: 'store copy PostgreSQL → SQLite', value: copyRate },
        target: { kind: 'min', limit: RATIO_TARGET, unit: '× baseline', of: 'ratio' },
        note:
          `pull ${(pull.ms / 1000).toFixed(1)} s (${(pull.summary.pulled.bytes / MB).toFixed(1)} MB received; ` +
          `pull phase from ${((pullPhase ?? 0) / 1000).toFixed(2)} s); ${pullSplit.text}. ` +
          `store copy: ${(copyMs / 1000).toFixed(1)} s wall incl. process start` +
          (copyOwn ? `, ${copyOwn[1]} s by its own count` : '') +
          `, peak RSS ${(copy.peakRss / MB).toFixed(0)} MB`,
      }),
      result({
        benchmark: NAME,
        label: 'initial pull: remote scans (POST /v1/sync/scans, and any export)',
        metric: 's',
        value: pullSplit.exportMs / 1000,
        note: 'timed by a pass-through proxy between laptop and team: request in to last byte out; overlaps the laptop storing the page before',
      }),
      result({
        benchmark: NAME,
        label: 'initial pull: remote change feed (GET /v1/sync/changes)',
        metric: 's',
        value: pullSplit.feedMs / 1000,
      }),
      result({
        benchmark: NAME,
        label: 'initial pull: laptop alone (no request to the team under way)',
        metric: 's',
        value: pullSplit.localMs / 1000,
        note: `total minus the time with a request to the team under way (other remote calls ${(pullSplit.otherRemoteMs / 1000).toFixed(2)} s)`,
      }),
      result({
        benchmark: NAME,
        label: 'initial pull: CPU seconds by process, against store copy',
        metric: 's',
        value: pullCpuText.total,
        note: `pull ${pullCpuText}; store copy ${copyCpuText}: what each side costs whatever else the machine runs`,
      }),
      result({
        benchmark: NAME,
        label: 'initial pull: laptop peak memory above idle',
        metric: 'MB',
        value: (initial.peakRss - initial.idleRss) / MB,
        note: `idle ${(initial.idleRss / MB).toFixed(0)} MB, peak ${(initial.peakRss / MB).toFixed(0)} MB (${initial.memoryMethod})`,
      }),
      result({
        benchmark: NAME,
        label: `sync with nothing new: p99 of ${EMPTY_SYNCS}`,
        metric: 'ms',
        value: percentile(empty, 99),
        target: { kind: 'max', limit: EMPTY_P99_TARGET_MS, unit: 'ms' },
        note: `p50 ${percentile(empty, 50).toFixed(1)} ms, min ${empty[0]!.toFixed(1)} ms; each a whole run: probe, organizations, feed, push queue`,
      }),
      result({
        benchmark: NAME,
        label: `sync of ${formatCount(NEW_SCANS)} new scans`,
        metric: 'ms',
        value: fresh.ms,
        target: { kind: 'max', limit: NEW_TARGET_MS, unit: 'ms' },
        note: freshSplit.text,
      }),
      result({
        benchmark: NAME,
        label: `sync of ${formatCount(NEW_SCANS)} new scans: remote scans`,
        metric: 'ms',
        value: freshSplit.exportMs,
      }),
      result({
        benchmark: NAME,
        label: `sync of ${formatCount(NEW_SCANS)} new scans: laptop alone`,
        metric: 'ms',
        value: freshSplit.localMs,
      }),
    ];
  } finally {
    await proxy.close();
    await laptop.stop();
    await teamServer.stop();
  }
}
