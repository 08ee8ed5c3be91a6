import Value from 'typebox/value';
import { SyncDigest, type SyncConvergence, type SyncDigestDay } from '../../../shared/api/sync';
import { RemoteRefused } from '../client/remote-errors';
import { isChangesPage } from '../remote-shapes';
import type { SyncContext } from '../sync-context';
import { differingDays, digestOfDays, foldDays, type DayRow } from './day-digest';
import { mirroredDayRows, mirrorIds, ownSubmits } from './digest.repository';

// The last stage of a run with a Scandesk remote (docs/sync.md#convergence-check): the remote's
// digest of what its user sees per organization, compared with what this store holds of each
// mirror; the organizations whose digests differ are asked for their days, and the summary names
// the days that differ.

/** Days named in the summary at most; organizations whose days are asked for at most. */
export const DAYS_SHOWN = 20;
export const ORGANIZATIONS_EXAMINED = 20;

const isDigest = (value: unknown): value is SyncDigest => Value.Check(SyncDigest, value);

const unchecked = (why: string): SyncConvergence => ({ state: 'unchecked', why, days: [], differing_days: 0 });

/** What this store holds of each of the remote's organizations (by its id there), per day, as the remote would count it. */
async function daysHere(ctx: SyncContext): Promise<Map<string, SyncDigestDay[]>> {
  const { db, remote } = ctx;
  const mirrors = await mirrorIds(db, remote.id);
  const local = [...mirrors.keys()];
  const rows: DayRow[] = await mirroredDayRows(db, remote, local);
  // Own submits: one not acknowledged is not there; one acknowledged carries the remote's verdict.
  for (const submit of await ownSubmits(db, remote, local, ctx.tally.pushed.waiting > 0)) {
    const day = submit.created_at;
    if (!submit.pushed) {
      rows.push({
        organization: submit.organization_id,
        day,
        scans: -1,
        tokens: -submit.tokens,
        violations: -submit.violations,
      });
    } else if (submit.remote_violations !== null) {
      const violations = submit.remote_violations - submit.violations;
      rows.push({ organization: submit.organization_id, day, scans: 0, tokens: 0, violations });
    }
  }
  const byRemoteId = new Map<string, SyncDigestDay[]>();
  for (const [localId, days] of foldDays(rows)) byRemoteId.set(mirrors.get(localId)!, days);
  return byRemoteId;
}

/** Whether the remote's feed holds changes after the saved cursor: then a difference may be only that. */
async function movedSince(ctx: SyncContext): Promise<boolean> {
  const saved = await ctx.db.selectFrom('remotes').select('cursor').where('id', '=', ctx.remote.id).executeTakeFirst();
  const query = { limit: 1, ...(saved?.cursor ? { cursor: saved.cursor } : {}) };
  const page = await ctx.client.getJson('/v1/sync/changes', query, isChangesPage);
  return page.changes.length > 0;
}

/**
 * Compares this store's copies with the remote's digest. A remote without the digest (an older
 * Scandesk) leaves it unchecked; any other failure is the caller's to name.
 */
export async function checkConvergence(ctx: SyncContext): Promise<SyncConvergence> {
  let there: SyncDigest;
  try {
    there = await ctx.client.getJson('/v1/sync/digest', undefined, isDigest);
  } catch (error) {
    if (error instanceof RemoteRefused && error.status === 404)
      return unchecked('the remote has no digest to compare with');
    throw error;
  }
  const here = await daysHere(ctx);
  const digests = new Map(there.organizations.map((org) => [org.organization_id, org.digest]));
  const suspects = [...new Set([...digests.keys(), ...here.keys()])]
    .sort()
    .filter((id) => digests.get(id) !== (here.has(id) ? digestOfDays(here.get(id)!) : undefined));
  if (suspects.length === 0) return { state: 'in_step', days: [], differing_days: 0 };

  const days: SyncConvergence['days'] = [];
  let differing = 0;
  for (const id of suspects.slice(0, ORGANIZATIONS_EXAMINED)) {
    ctx.signal.throwIfAborted();
    const theirs = digests.has(id)
      ? ((await ctx.client.getJson('/v1/sync/digest', { organization_id: id }, isDigest)).organizations[0]?.days ?? [])
      : [];
    for (const day of differingDays(here.get(id) ?? [], theirs)) {
      differing += 1;
      if (days.length < DAYS_SHOWN) days.push({ organization_id: id, ...day });
    }
  }
  if (differing === 0) return { state: 'in_step', days: [], differing_days: 0 };
  if (await movedSince(ctx)) return unchecked('the remote changed while this sync ran; the next sync checks again');
  const more =
    suspects.length > ORGANIZATIONS_EXAMINED
      ? ` (the days of ${ORGANIZATIONS_EXAMINED} of ${suspects.length} organizations counted)`
      : '';
  return {
    state: 'differs',
    why:
      `${differing} day${differing === 1 ? '' : 's'} differ${differing === 1 ? 's' : ''}${more}: ` +
      'scans deleted there stay here; anything else is not mended by the next sync, which reads only what changed there',
    days,
    differing_days: differing,
  };
}
