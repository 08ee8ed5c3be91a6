import type { Organization, OrganizationList } from '../../shared/api/organizations';
import { printJson, table, writeOut } from '../output';
import { EXIT, UsageError } from '../usage-error';
import { parseClientArgs } from './client-flags';
import { orgsHelp } from './help';

function printOrganization(organization: Organization, json: boolean): void {
  if (json) return printJson(organization);
  writeOut(
    `${table(
      ['ID', 'NAME', 'PLAN', 'MEMBERS', 'CREATED'],
      [[organization.id, organization.name, organization.plan, organization.member_count, organization.created_at]],
    )}\n`,
  );
}

export async function orgsCommand(args: string[]): Promise<number> {
  const [action, ...rest] = args;
  const { client, json, positionals } = parseClientArgs(rest);
  const arg = (index: number, name: string): string => {
    const value = positionals[index];
    if (value === undefined) throw new UsageError(`orgs ${action ?? ''}: missing ${name}`);
    return value;
  };
  switch (action) {
    case 'list': {
      const { organizations } = await client.request<OrganizationList>('GET', '/v1/organizations');
      if (json) printJson({ organizations });
      else if (organizations.length === 0) writeOut('no organizations; create one with `scandesk orgs create NAME`\n');
      else
        writeOut(
          `${table(
            ['ID', 'NAME', 'ROLE'],
            organizations.map((o) => [o.id, o.name, o.role]),
          )}\n`,
        );
      return EXIT.ok;
    }
    case 'create':
      printOrganization(
        await client.request<Organization>('POST', '/v1/organizations', { name: arg(0, 'NAME') }),
        json,
      );
      return EXIT.ok;
    case 'rename':
      printOrganization(
        await client.request<Organization>('PATCH', `/v1/organizations/${encodeURIComponent(arg(0, 'ID'))}`, {
          name: arg(1, 'NAME'),
        }),
        json,
      );
      return EXIT.ok;
    case 'delete': {
      const id = arg(0, 'ID');
      await client.request('DELETE', `/v1/organizations/${encodeURIComponent(id)}`);
      if (!json) writeOut(`deleted ${id}\n`);
      return EXIT.ok;
    }
    default:
      throw new UsageError(`orgs: unknown action "${action ?? ''}"\n${orgsHelp}`);
  }
}
