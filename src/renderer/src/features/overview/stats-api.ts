import type { StatsQuery } from './live-range';

/** The overview's stats queries; the range is in the key as instants, so a moving live end is a new key. */
export const statsKeys = {
  all: ['stats'] as const,
  tokens: (query: StatsQuery) => ['stats', 'tokens', query] as const,
  violations: (query: StatsQuery) => ['stats', 'violations', query] as const,
  origins: ['stats', 'origins'] as const,
};
