import { Type, type Static } from 'typebox';
import { Id } from '../../../../shared/api/common';
import { parseSearch } from '../../../../shared/search-params';

export const ORG_TABS = ['teams', 'members', 'policy'] as const;
export type OrgTab = (typeof ORG_TABS)[number];

const OrganizationsSearchSchema = Type.Object({
  org: Type.Optional(Id),
  tab: Type.Optional(Type.Enum(ORG_TABS)),
  /** The team whose members are open, on the teams tab. */
  team: Type.Optional(Id),
});

export type OrganizationsSearch = Partial<Static<typeof OrganizationsSearchSchema>>;

/** The route's validateSearch: whatever a hand-edited URL holds, the page gets a usable state. */
export function parseOrganizationsSearch(input: unknown): OrganizationsSearch {
  const search: OrganizationsSearch = parseSearch(OrganizationsSearchSchema, input);
  // A team is open only within its organization.
  if (search.org === undefined) search.team = undefined;
  return search;
}

export const tabOf = (search: OrganizationsSearch): OrgTab => search.tab ?? 'teams';
