/** The kinds of resource a path parameter of the API can name. */
export type IdKind = 'organization' | 'team' | 'scan' | 'user';

/** The kind of id a path parameter names: from its own name, else from the segment before it. */
export function idKind(path: string, param: string): IdKind | null {
  if (param === 'user_id') return 'user';
  if (param === 'org_id') return 'organization';
  if (param === 'scan_id') return 'scan';
  const before = path.split(`/{${param}}`)[0]!.split('/').pop();
  const kinds: Record<string, IdKind> = { organizations: 'organization', teams: 'team', scans: 'scan', users: 'user' };
  return before ? (kinds[before] ?? null) : null;
}
