// A page in tokens order on SQLite, with filters. Its planner reads every match through the
// filter's index, looks each one's tokens up in the table and sorts them (1.1M `Cursor` scans of
// 10,000,000: 1.5 s for 50 rows), or it walks scans_list_tokens in order and drops each scan that
// does not match, which stops after the page. The walk reads the index alone (it carries what the
// filters and the visibility rule read), about (offset + limit) × scans / matches entries; a match
// read and sorted costs about six entries walked. So the walk pays once the matches are more than
// √((offset + limit) × scans / 6): 9,100 of 10,000,000 for a first page of 50. PostgreSQL weighs
// the same with its statistics and needs no word.

/** What reading and sorting a match costs, in index entries walked. */
const SORTED_MATCH_COST = 6;

/**
 * Whether to walk the tokens index for a page of `limit` rows after `offset` that `matches` of
 * the store's `scans` (all of them, anyone's) can fill.
 */
export function walksTokenIndex({
  matches,
  scans,
  offset,
  limit,
}: {
  matches: number;
  scans: number;
  offset: number;
  limit: number;
}): boolean {
  if (matches <= 0) return false;
  const walked = ((offset + limit) * scans) / matches;
  return walked < SORTED_MATCH_COST * matches;
}
