import { Policy } from '../../../shared/api/policies';
import { currentTimestamp, parseDateTime } from '../../../shared/time';
import Value from 'typebox/value';
import { type Executor, inTransaction } from '../../db/index';
import { newId } from '../../ids';
import { insertDefaultPolicy, upsertMembership } from '../../organizations/organizations.repository';
import { savePolicy } from '../../policies/policies.repository';
import { teamNameKey } from '../../teams/teams.repository';
import { RemoteBroken, RemoteRefused } from '../client/remote-errors';
import {
  isOrganizationDetail,
  isOrganizationList,
  isTeamList,
  type RemoteOrganization,
  type RemoteTeam,
} from '../remote-shapes';
import type { SyncContext } from '../sync-context';
import { distinctTeamName, mirrorName, mirrorPlan, mirrorRole } from './mirror-values';

// The first stage of a run (docs/sync.md): the organizations the remote user belongs to, with
// their teams (and, from a Scandesk remote, their policy, so that a scan submitted here offline is
// judged by the team's rules), as local mirrors keyed by (remote, remote id). The local user the
// remote fills becomes a member with the remote role. Mirrors are read-only here (their services
// refuse changes). An organization the remote no longer lists is kept, with the scans pulled into
// it; a team it no longer lists is removed (no scan belongs to a team).

interface RemoteOrganizationFacts {
  org: RemoteOrganization;
  detail: { plan?: unknown; created_at?: unknown } | null;
  teams: RemoteTeam[];
  policy: Policy | null;
}

/** The remote's organization ids → their local mirrors' ids, every mirror of this remote included. */
export type OrganizationMap = Map<string, string>;

/** A read a plain upstream may keep from us (its permissions are "not shown"): null, not a failure. */
async function optional<T>(ctx: SyncContext, read: () => Promise<T>): Promise<T | null> {
  try {
    return await read();
  } catch (error) {
    const forbidden = error instanceof RemoteRefused && (error.status === 403 || error.status === 404);
    if (forbidden && ctx.remote.kind === 'upstream') return null;
    throw error;
  }
}

async function readRemote(ctx: SyncContext): Promise<RemoteOrganizationFacts[]> {
  const { client } = ctx;
  const list = await client.getJson('/v1/organizations', undefined, isOrganizationList);
  const facts: RemoteOrganizationFacts[] = [];
  for (const [index, org] of list.organizations.entries()) {
    ctx.signal.throwIfAborted();
    const path = `/v1/organizations/${encodeURIComponent(org.id)}`;
    const detail = await optional(ctx, () => client.getJson(path, undefined, isOrganizationDetail));
    const teams = await optional(ctx, () => client.getJson(`${path}/teams`, undefined, isTeamList));
    let policy: Policy | null = null;
    if (ctx.remote.kind === 'scandesk') {
      const value = await client.getJson(`${path}/policy`);
      if (!Value.Check(Policy, value))
        throw new RemoteBroken(`the remote's policy of organization ${org.id} is not one`);
      policy = value;
    }
    facts.push({ org, detail, teams: teams?.teams ?? [], policy });
    ctx.progress.report('organizations', index + 1, list.organizations.length);
  }
  return facts;
}

async function upsertOrganization(
  trx: Executor,
  ctx: SyncContext,
  facts: RemoteOrganizationFacts,
  at: string,
): Promise<string> {
  const { remote } = ctx;
  const name = mirrorName(facts.org.name, facts.org.id);
  const plan = mirrorPlan(facts.detail?.plan);
  const existing = await trx
    .selectFrom('organizations')
    .select('id')
    .where('remote_id', '=', remote.id)
    .where('remote_org_id', '=', facts.org.id)
    .executeTakeFirst();
  let id: string;
  if (existing) {
    id = existing.id;
    await trx.updateTable('organizations').set({ name, plan }).where('id', '=', id).execute();
  } else {
    id = newId('organization');
    const createdMs = typeof facts.detail?.created_at === 'string' ? parseDateTime(facts.detail.created_at) : null;
    await trx
      .insertInto('organizations')
      .values({
        id,
        name,
        plan,
        created_at: createdMs === null ? at : new Date(createdMs).toISOString(),
        remote_id: remote.id,
        remote_org_id: facts.org.id,
      })
      .execute();
  }
  await upsertMembership(trx, {
    organization_id: id,
    user_id: remote.user_id,
    role: mirrorRole(facts.org.role),
    joined_at: at,
  });
  if (facts.policy) await savePolicy(trx, id, facts.policy, at);
  else if (!existing) await insertDefaultPolicy(trx, id, at);
  await mirrorTeams(trx, ctx, id, facts.teams, at);
  return id;
}

async function mirrorTeams(
  trx: Executor,
  ctx: SyncContext,
  organizationId: string,
  teams: readonly RemoteTeam[],
  at: string,
): Promise<void> {
  const { remote } = ctx;
  const stored = await trx
    .selectFrom('teams')
    .select(['id', 'name_key', 'remote_id', 'remote_team_id'])
    .where('organization_id', '=', organizationId)
    .execute();
  const listed = new Set(teams.map((team) => team.id));
  const gone = stored.filter((team) => team.remote_id === remote.id && !listed.has(team.remote_team_id ?? ''));
  if (gone.length > 0) {
    await trx
      .deleteFrom('teams')
      .where(
        'id',
        'in',
        gone.map((team) => team.id),
      )
      .execute();
  }
  const byRemoteId = new Map(
    stored.filter((team) => team.remote_id === remote.id).map((team) => [team.remote_team_id, team]),
  );
  // Names taken by the teams that stay, this one aside: a rename must not collide either.
  const taken = new Map(stored.filter((team) => !gone.includes(team)).map((team) => [team.id, team.name_key]));
  for (const team of teams) {
    const mine = byRemoteId.get(team.id);
    const others = new Set([...taken].filter(([id]) => id !== mine?.id).map(([, key]) => key));
    const name = distinctTeamName(mirrorName(team.name, team.id), team.id, others);
    const nameKey = teamNameKey(name);
    if (mine) {
      await trx.updateTable('teams').set({ name, name_key: nameKey }).where('id', '=', mine.id).execute();
      taken.set(mine.id, nameKey);
    } else {
      const id = newId('team');
      await trx
        .insertInto('teams')
        .values({
          id,
          organization_id: organizationId,
          name,
          name_key: nameKey,
          created_at: at,
          remote_id: remote.id,
          remote_team_id: team.id,
        })
        .execute();
      taken.set(id, nameKey);
    }
  }
}

/**
 * Mirrors the remote's organizations and teams in one transaction, then answers the map every
 * mirror of this remote is found by (the pull places scans with it).
 */
export async function mirrorOrganizations(ctx: SyncContext): Promise<OrganizationMap> {
  ctx.progress.report('organizations', 0, null, true);
  const facts = await readRemote(ctx);
  const at = currentTimestamp();
  await inTransaction(ctx.db, async (trx) => {
    for (const one of facts) await upsertOrganization(trx, ctx, one, at);
  });
  ctx.progress.report('organizations', facts.length, facts.length, true);
  return organizationMap(ctx.db, ctx.remote.id);
}

export async function organizationMap(db: Executor, remoteId: string): Promise<OrganizationMap> {
  const rows = await db
    .selectFrom('organizations')
    .select(['id', 'remote_org_id'])
    .where('remote_id', '=', remoteId)
    .execute();
  return new Map(rows.flatMap((row) => (row.remote_org_id === null ? [] : [[row.remote_org_id, row.id] as const])));
}
