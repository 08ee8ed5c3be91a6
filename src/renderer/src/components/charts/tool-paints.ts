import { PATTERNS, SERIES_HUES, type Paint } from './palette';

/*
 * Which paint each tool gets. Decided over the whole set of tools in the store (the chart's own
 * tools added, in case that list is a moment behind), never over one chart's tools: what a tool
 * looks like then cannot depend on what else a chart or range happens to draw, so it is the same
 * in every chart and range, and no two tools of the store share a paint while there are paints
 * to go round. A tool's first choice is a hash of its name and collisions move on to the next
 * free hue, taken in name order: a new tool moves at most the few whose choice it takes, where
 * numbering the sorted names would shift every tool after it. When the hues run out, the next
 * tools get the hues again with a pattern; only past every hue and pattern (48 tools) can two
 * tools share a paint, and then one chart's tools are still kept apart (chartToolPaints).
 */

const HUES = SERIES_HUES.length;

/** FNV-1a over UTF-16 code units: fixed across runs and browsers, unlike any built-in hash. */
function hashOf(name: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) hash = Math.imul(hash ^ name.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

/** Names in code-unit order: unlike localeCompare, the same in every browser and locale. */
const byCodeUnits = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * A paint per tool, unique over the given tools up to HUES × PATTERNS of them. `level` counts
 * rounds through the hues; its pattern repeats after the last pattern.
 */
export function assignToolPaints(tools: Iterable<string>): Map<string, Paint> {
  const names = [...new Set(tools)].sort(byCodeUnits);
  const taken: Set<number>[] = [];
  const paints = new Map<string, Paint>();
  for (const name of names) {
    const first = hashOf(name) % HUES;
    for (let level = 0; ; level++) {
      const used = (taken[level] ??= new Set());
      if (used.size === HUES) continue;
      let hue = first;
      while (used.has(hue)) hue = (hue + 1) % HUES;
      used.add(hue);
      paints.set(name, { hue, pattern: level % PATTERNS.length });
      break;
    }
  }
  return paints;
}

const paintKey = (paint: Paint): number => paint.pattern * HUES + paint.hue;

/**
 * The paints of one chart's tools: each tool's paint in the store, and where two tools of this
 * chart would still look alike (more tools in the store than paints), the later by name takes
 * the next paint no tool of this chart has.
 */
export function chartToolPaints(storeTools: Iterable<string>, chartTools: readonly string[]): Map<string, Paint> {
  const all = assignToolPaints([...storeTools, ...chartTools]);
  const used = new Set<number>();
  const paints = new Map<string, Paint>();
  for (const name of [...new Set(chartTools)].sort(byCodeUnits)) {
    let key = paintKey(all.get(name)!);
    for (let tries = 0; used.has(key) && tries < HUES * PATTERNS.length; tries++)
      key = (key + 1) % (HUES * PATTERNS.length);
    used.add(key);
    paints.set(name, { hue: key % HUES, pattern: Math.floor(key / HUES) });
  }
  return paints;
}
