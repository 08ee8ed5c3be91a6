import { useNavigate, useSearch } from '@tanstack/react-router';
import { QueryState } from '../../components/QueryState';
import { NameForm } from './NameForm';
import { OrganizationDetail } from './OrganizationDetail';
import { OrganizationList } from './OrganizationList';
import { useCreateOrganization, useOrganizations } from './organizations-api';

export function OrganizationsPage() {
  const search = useSearch({ from: '/organizations' });
  const navigate = useNavigate({ from: '/organizations' });
  const organizations = useOrganizations();
  const create = useCreateOrganization();
  const list = organizations.data?.organizations ?? [];
  const selected = list.find((org) => org.id === search.org);

  return (
    <section className="org-page">
      <h1>Organizations</h1>
      <div className="org-layout">
        <aside className="org-sidebar card" aria-labelledby="org-list-heading">
          <h2 id="org-list-heading" tabIndex={-1}>
            Your organizations
          </h2>
          <QueryState
            isPending={organizations.isPending}
            error={organizations.error}
            isEmpty={list.length === 0}
            empty="You are not a member of any organization yet. Create one below."
          >
            <OrganizationList organizations={list} selectedId={search.org} />
          </QueryState>
          <NameForm
            label="New organization name"
            submitLabel="Create"
            pending={create.isPending}
            error={create.error}
            onSubmit={(name) =>
              create.mutate(name, {
                onSuccess: (org) => void navigate({ search: { org: org.id, tab: 'teams' } }),
              })
            }
          />
        </aside>
        <div className="org-main">
          {/* The caller's role comes from the list: without it every control would look forbidden. */}
          {search.org && organizations.isPending ? null : search.org ? (
            <OrganizationDetail key={search.org} orgId={search.org} role={selected?.role} search={search} />
          ) : (
            <p className="state">Select an organization to see its teams, members and policy.</p>
          )}
        </div>
      </div>
    </section>
  );
}
