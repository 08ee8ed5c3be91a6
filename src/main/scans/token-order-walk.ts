// A page in tokens order on SQLite, with filters. Its planner reads every match through the
// filter's index and sorts them (1.1M `Cursor` scans of 10,000,000: 1.5 s for 50 rows), or it walks
// scans_tokens_id in order and drops each scan that does not match, which stops after the page.
// Either way each row read costs about one lookup of the scan (the tokens index holds no other
// column), and sorting a match costs about a third more. The walk reads about
// (offset + limit) × scans / matches rows, the sort 4/3 × matches: the walk pays once matches
// are more than √(¾ × (offset + limit) × scans) (19,400 of 10,000,000 for a first page of 50).
// PostgreSQL weighs the same with its statistics and needs no word.

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
  return walked < (4 / 3) * matches;
}
