// Which tables the WAL checkpointer's worker gives planner statistics while the store runs. The
// planner picks the list's plan from sqlite_stat1: with none for `scans` it merges the visibility
// OR through two indexes and sorts every visible scan (linear in the store: 64 ms a page at 28,000
// scans), with them it walks the list index in order (0.3 ms). `pragma optimize` at open gives
// statistics only to the tables that have rows then, so a store that starts empty (a first start)
// has none until the server restarts, however long it runs and however large it grows.
//
// Analyzed here: the tables without any statistics, at the first checkpoint after they have rows,
// when the full ANALYZE costs milliseconds; and those whose statistics were taken small
// (SMALL_STATISTICS_ROWS or fewer) once `pragma optimize` finds them grown 25-fold. Statistics
// that say "a few hundred rows" make the planner scan a table for a lookup of many keys (`id in
// (…1,000 ids…)` read every scan of a 100,000-scan store while the statistics said 1,000): a
// lookup turns into a scan while the keys asked for exceed about a fifth of the rows the
// statistics count. So the count is brought to at least 25 × its first one, at a cost bounded by
// a table of about 25 × SMALL_STATISTICS_ROWS rows. A table whose statistics are larger keeps their
// shape (the proportions the plan depends on) and is analyzed again at the next open (`optimize =
// 0x10002`), where a large one's seconds are part of the start rather than a stall of every
// writer. A limited ANALYZE (plain `pragma optimize`, 2,000 rows an index) would be cheap at any
// size but counts at most that many scans per submitter, which for one person's store says "a few
// of many" and brings the sort back.

/** Statistics of at most this many rows are taken again when their table has grown 25-fold. */
export const SMALL_STATISTICS_ROWS = 4_000;

/** What `pragma optimize` answers in its debug mode (mask 0x1): one row per ANALYZE it would run. */
export interface OptimizeDebugRow {
  optimize: string;
}

const ANALYZE_MAIN = /^ANALYZE "main"\."((?:[^"]|"")+)"$/;

/**
 * The tables to analyze now: those `pragma optimize` would analyze (with rows, and unanalyzed or
 * grown 25-fold) that have no statistics yet or small ones, given the rows sqlite_stat1 counts
 * per table.
 */
export function tablesToAnalyze(
  wanted: readonly OptimizeDebugRow[],
  statisticsRows: ReadonlyMap<string, number>,
): string[] {
  const tables: string[] = [];
  for (const { optimize } of wanted) {
    const match = ANALYZE_MAIN.exec(optimize);
    if (!match) continue;
    const table = match[1]!.replaceAll('""', '"');
    const rows = statisticsRows.get(table);
    if (rows === undefined || rows <= SMALL_STATISTICS_ROWS) tables.push(table);
  }
  return tables;
}
