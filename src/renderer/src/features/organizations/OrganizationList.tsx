import { Link } from '@tanstack/react-router';
import type { OrganizationSummary } from '../../../../shared/api/organizations';

export function OrganizationList({
  organizations,
  selectedId,
}: {
  organizations: readonly OrganizationSummary[];
  selectedId: string | undefined;
}) {
  return (
    <ul className="org-list">
      {organizations.map((org) => (
        <li key={org.id}>
          <Link
            to="/organizations"
            search={{ org: org.id, tab: 'teams' }}
            aria-current={org.id === selectedId ? 'page' : undefined}
          >
            <span className="org-list-name">{org.name}</span> <span className="org-role">{org.role}</span>
          </Link>
        </li>
      ))}
    </ul>
  );
}
