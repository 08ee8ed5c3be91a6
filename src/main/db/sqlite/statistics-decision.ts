// Which tables the WAL checkpointer's worker gives planner statistics while the store runs. The
// planner picks the list's plan from sqlite_stat1: with none for `scans` it merges the visibility
// OR through two indexes and sorts every visible scan (linear in the store: 64 ms a page at 28,000
// scans), with them it walks the list index in order (0.3 ms). `pragma optimize` at open gives
// statistics only to the tables that have rows then, so a store that starts empty (a first start)
// has none until the server restarts, however long it runs and however large it grows.
//
// Only tables without any statistics are analyzed here: the first analysis happens at the first
// checkpoint after a table has rows, when it is small and the full ANALYZE costs milliseconds.
// A table that outgrows its statistics keeps their shape (the proportions the plan depends on)
// and is analyzed again at the next open (`optimize = 0x10002`), where a large one's seconds are
// part of the start rather than a stall of every writer. A limited ANALYZE (plain `pragma
// optimize`, 2,000 rows an index) would be cheap at any size but counts at most that many scans per
// submitter, which for one person's store says "a few of many" and brings the sort back.

/** What `pragma optimize` answers in its debug mode (mask 0x1): one row per ANALYZE it would run. */
export interface OptimizeDebugRow {
  optimize: string;
}

const ANALYZE_MAIN = /^ANALYZE "main"\."((?:[^"]|"")+)"$/;

/**
 * The tables to analyze now: those `pragma optimize` would analyze (with rows, and unanalyzed or
 * grown 25-fold) that have no statistics at all yet, given the tables sqlite_stat1 names.
 */
export function tablesToAnalyze(wanted: readonly OptimizeDebugRow[], analyzed: ReadonlySet<string>): string[] {
  const tables: string[] = [];
  for (const { optimize } of wanted) {
    const match = ANALYZE_MAIN.exec(optimize);
    if (!match) continue;
    const table = match[1]!.replaceAll('""', '"');
    if (!analyzed.has(table)) tables.push(table);
  }
  return tables;
}
