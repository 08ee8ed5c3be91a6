import type { Team, TeamList } from '../../shared/api/teams';
import { printJson, table, writeOut } from '../output';
import { EXIT, UsageError } from '../usage-error';
import { parseClientArgs } from './client-flags';
import { teamsHelp } from './help';

export async function teamsCommand(args: string[]): Promise<number> {
  const [action, ...rest] = args;
  const { client, json, positionals } = parseClientArgs(rest);
  const [orgId, name] = positionals;
  if (!orgId) throw new UsageError(`teams ${action ?? ''}: missing ORG_ID\n${teamsHelp}`);
  const teamsPath = `/v1/organizations/${encodeURIComponent(orgId)}/teams`;
  switch (action) {
    case 'list': {
      const { teams } = await client.request<TeamList>('GET', teamsPath);
      if (json) printJson({ teams });
      else if (teams.length === 0) writeOut('no teams in this organization\n');
      else
        writeOut(
          `${table(
            ['ID', 'NAME', 'MEMBERS'],
            teams.map((t) => [t.id, t.name, t.member_count]),
          )}\n`,
        );
      return EXIT.ok;
    }
    case 'create': {
      if (!name) throw new UsageError(`teams create: missing NAME\n${teamsHelp}`);
      const team = await client.request<Team>('POST', teamsPath, { name });
      if (json) printJson(team);
      else
        writeOut(
          `${table(['ID', 'NAME', 'ORGANIZATION', 'CREATED'], [[team.id, team.name, team.organization_id, team.created_at]])}\n`,
        );
      return EXIT.ok;
    }
    default:
      throw new UsageError(`teams: unknown action "${action ?? ''}"\n${teamsHelp}`);
  }
}
