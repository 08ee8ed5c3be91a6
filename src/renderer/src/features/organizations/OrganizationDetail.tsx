import { Link } from '@tanstack/react-router';
import type { Role } from '../../../../shared/api/common';
import { QueryState } from '../../components/QueryState';
import { ZonedTime } from '../../components/ZonedTime';
import { formatCount } from '../../lib/format';
import { useClock } from '../../lib/use-clock';
import { DeleteOrganization } from './DeleteOrganization';
import { MembersTab } from './MembersTab';
import { NameForm } from './NameForm';
import { useOrganization, useRenameOrganization } from './organizations-api';
import { ORG_TABS, tabOf, type OrganizationsSearch } from './organizations-search';
import { permission } from './permissions';
import { PolicyTab } from './PolicyTab';
import { TeamsTab } from './TeamsTab';

const TAB_LABEL = { teams: 'Teams', members: 'Members', policy: 'Policy' } as const;

export function OrganizationDetail({
  orgId,
  role,
  search,
}: {
  orgId: string;
  role: Role | undefined;
  search: OrganizationsSearch;
}) {
  const organization = useOrganization(orgId);
  const clock = useClock();
  const rename = useRenameOrganization(orgId);
  const tab = tabOf(search);
  const org = organization.data;

  return (
    <QueryState isPending={organization.isPending} error={organization.error}>
      {org && (
        <article className="org-detail" aria-labelledby="org-detail-heading">
          <header className="card org-header">
            <h2 id="org-detail-heading">{org.name}</h2>
            <p className="org-meta">
              Your role: <strong>{role ?? 'unknown'}</strong> · Plan: {org.plan} · {formatCount(org.member_count)}{' '}
              member{org.member_count === 1 ? '' : 's'} · Created <ZonedTime value={org.created_at} /> ({clock.label})
            </p>
            <div className="org-header-actions">
              <NameForm
                key={org.name}
                label="Organization name"
                submitLabel="Rename"
                initial={org.name}
                pending={rename.isPending}
                error={rename.error}
                permission={permission(role, 'rename')}
                onSubmit={(name) => rename.mutate(name)}
              />
              <DeleteOrganization organization={org} permission={permission(role, 'delete')} />
            </div>
          </header>
          <nav className="org-tabs" aria-label="Organization sections">
            {ORG_TABS.map((name) => (
              <Link
                key={name}
                to="/organizations"
                search={{ org: orgId, tab: name }}
                aria-current={tab === name ? 'page' : undefined}
              >
                {TAB_LABEL[name]}
              </Link>
            ))}
          </nav>
          <div className="org-panel">
            {tab === 'teams' && <TeamsTab orgId={orgId} role={role} teamId={search.team} />}
            {tab === 'members' && <MembersTab orgId={orgId} role={role} />}
            {tab === 'policy' && <PolicyTab orgId={orgId} role={role} />}
          </div>
        </article>
      )}
    </QueryState>
  );
}
