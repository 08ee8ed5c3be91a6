/**
 * The recount after a sync was killed or cut: both sides read straight, whatever the sync said.
 * Every scan a test makes has an action of its own, so "nothing doubled" is "no action twice" on
 * either side, and "nothing lost" is "the same actions on both sides" once a clean sync ran.
 */
import { expect } from 'vitest';
import type { SyncChanges } from '../../src/shared/api/sync';
import type { ScanList } from '../../src/shared/api/scans';
import type { Db } from '../../src/main/db/database';

/** A GET of the team server as the remote's user, answering the parsed JSON (status 200 expected). */
export type TeamGet = (path: string) => Promise<unknown>;

/** Every scan id the team's change feed shows the remote's user after `cursor` (null: from its start). */
export async function feedIds(teamGet: TeamGet, cursor: string | null): Promise<Set<string>> {
  const ids = new Set<string>();
  for (let at = cursor; ;) {
    const page = (await teamGet(
      `/v1/sync/changes?limit=1000${at === null ? '' : `&cursor=${encodeURIComponent(at)}`}`,
    )) as SyncChanges;
    for (const change of page.changes) ids.add(change.id);
    if (!page.more) return ids;
    at = page.cursor;
  }
}

/** A team scan as the recount sees it. */
export interface TeamScan {
  action: string;
  violations: number;
}

/** The team's scans the remote's user sees, by id. */
export async function teamScans(teamGet: TeamGet): Promise<Map<string, TeamScan>> {
  const scans = new Map<string, TeamScan>();
  for (let offset = 0; ; offset += 500) {
    const list = (await teamGet(`/v1/scans?limit=500&offset=${offset}`)) as ScanList;
    for (const scan of list.scans) scans.set(scan.id, { action: scan.action, violations: scan.violation_count });
    if (offset + 500 >= list.total) return scans;
  }
}

/** What the laptop holds of `remoteId`. */
export async function laptopScans(db: Db, remoteId: string) {
  const scans = await db
    .selectFrom('scans')
    .select(['id', 'action', 'source', 'origin_id', 'violation_count'])
    .execute();
  const pushes = await db
    .selectFrom('sync_pushes')
    .select(['scan_id', 'remote_scan_id', 'remote_violation_count'])
    .where('remote_id', '=', remoteId)
    .execute();
  const remote = await db.selectFrom('remotes').select('cursor').where('id', '=', remoteId).executeTakeFirstOrThrow();
  return {
    scans,
    /** Remote ids this laptop knows: pulled scans' origins and acknowledged pushes' ids there. */
    known: new Set([
      ...scans.flatMap((scan) => (scan.origin_id === null ? [] : [scan.origin_id])),
      ...pushes.flatMap((push) => (push.remote_scan_id === null ? [] : [push.remote_scan_id])),
    ]),
    pushes,
    cursor: remote.cursor,
  };
}

const twice = (actions: readonly string[]): string[] =>
  [...new Set(actions.filter((action, i) => actions.indexOf(action) !== i))].sort();

/**
 * What must hold after any sync, cut or not: no scan twice on either side, and the saved cursor
 * not past a team scan the laptop lacks (every such scan is still ahead of it in the feed).
 */
export async function expectConsistent(teamGet: TeamGet, db: Db, remoteId: string, why: string): Promise<void> {
  const team = await teamScans(teamGet);
  const laptop = await laptopScans(db, remoteId);
  expect(twice([...team.values()].map((scan) => scan.action)), `${why}: doubled on the team`).toEqual([]);
  expect(twice(laptop.scans.map((scan) => scan.action)), `${why}: doubled on the laptop`).toEqual([]);
  const ahead = laptop.cursor === null ? null : await feedIds(teamGet, laptop.cursor);
  const skipped = [...team.keys()].filter((id) => !laptop.known.has(id) && ahead !== null && !ahead.has(id));
  expect(
    skipped.map((id) => team.get(id)!.action),
    `${why}: the cursor is past team scans the laptop does not have`,
  ).toEqual([]);
}

/**
 * After a clean sync: every team scan on the laptop exactly once (pulled, or its own push), every
 * scan submitted on the laptop on the team exactly once, its push acknowledged once with the
 * team's id for it, and the team's verdict on each (its violation count) known here.
 */
export async function expectConverged(teamGet: TeamGet, db: Db, remoteId: string, why: string): Promise<void> {
  await expectConsistent(teamGet, db, remoteId, why);
  const team = await teamScans(teamGet);
  const laptop = await laptopScans(db, remoteId);
  expect(laptop.scans.map((scan) => scan.action).sort(), `${why}: the same scans on both sides`).toEqual(
    [...team.values()].map((scan) => scan.action).sort(),
  );
  const submitted = laptop.scans.filter((scan) => scan.source === 'submitted');
  const acks = new Map(laptop.pushes.map((push) => [push.scan_id, push]));
  for (const scan of submitted) {
    const ack = acks.get(scan.id);
    expect(ack?.remote_scan_id, `${why}: ${scan.action} acknowledged`).toEqual(expect.any(String));
    const copy = team.get(ack!.remote_scan_id!);
    expect(copy?.action, `${why}: ${scan.action} acknowledged as the team's copy`).toBe(scan.action);
    expect(ack!.remote_violation_count, `${why}: the team's verdict on ${scan.action}`).toBe(copy!.violations);
  }
  expect(laptop.pushes, `${why}: one push log row per submitted scan`).toHaveLength(submitted.length);
  const pulled = laptop.scans.filter((scan) => scan.source === 'pulled');
  for (const scan of pulled) {
    expect(scan.violation_count, `${why}: the team's verdict on ${scan.action}`).toBe(
      team.get(scan.origin_id!)?.violations,
    );
  }
  expect(pulled.length + submitted.length, `${why}: every team scan here once`).toBe(team.size);
}
