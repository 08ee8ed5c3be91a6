import { isId } from '../../../../shared/ids';

export const ORG_TABS = ['teams', 'members', 'policy'] as const;
export type OrgTab = (typeof ORG_TABS)[number];

export interface OrganizationsSearch {
  org?: string;
  tab?: OrgTab;
  /** The team whose members are open, on the teams tab. */
  team?: string;
}

/** An id as the server's id rule has it (shared/ids.ts); anything else names nothing. */
const id = (value: unknown): string | undefined =>
  typeof value === 'string' && isId(value.trim()) ? value.trim() : undefined;

/** The route's validateSearch: whatever a hand-edited URL holds, the page gets a usable state. */
export function parseOrganizationsSearch(raw: Record<string, unknown>): OrganizationsSearch {
  const search: OrganizationsSearch = {};
  const org = id(raw.org);
  if (org) search.org = org;
  const tab = raw.tab;
  if (typeof tab === 'string' && (ORG_TABS as readonly string[]).includes(tab)) search.tab = tab as OrgTab;
  const team = id(raw.team);
  if (org && team) search.team = team;
  return search;
}

export const tabOf = (search: OrganizationsSearch): OrgTab => search.tab ?? 'teams';
