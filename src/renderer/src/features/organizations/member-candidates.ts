/** Someone who can be picked: a workspace user, or a member of the organization. */
export interface Candidate {
  id: string;
  name: string;
}

/**
 * Who can still be added: everyone offered who is not in already, sorted by name (then id, so
 * that two people of one name keep one order) for a person scanning the list.
 */
export function candidatesToAdd(offered: readonly Candidate[], inAlready: Iterable<string>): Candidate[] {
  const taken = new Set(inAlready);
  return offered
    .filter((person) => !taken.has(person.id))
    .sort((a, b) => a.name.localeCompare(b.name, 'en') || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
