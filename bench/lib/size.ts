const SUFFIXES: Record<string, number> = { '': 1, k: 1_000, m: 1_000_000 };

/** `--size`: `10m`, `500k` or `20000` scans; null when it is none of these. */
export function parseSize(text: string): number | null {
  const match = /^(\d+(?:\.\d+)?)([km]?)$/i.exec(text.trim());
  if (!match) return null;
  const value = Number(match[1]) * SUFFIXES[match[2]!.toLowerCase()]!;
  return Number.isInteger(value) && value > 0 ? value : null;
}
