// What a pull does with one scan of a package (docs/contract/api.md#pulled-scans), decided from
// what was found: no I/O here.

/**
 * `echoed`: one of our own pushes coming back (only the push log's remote verdict is updated);
 * `new`: stored; `unchanged`: nothing written; `violations`: the stored scan keeps its timeline
 * and gets the package's violations and organization; `replaced`: the stored scan is replaced
 * whole, its timeline included. The last two are both reported as `changed`.
 */
export type PulledOutcome = 'echoed' | 'new' | 'unchanged' | 'violations' | 'replaced';

export interface PulledFacts {
  /** The package scan's id is the remote id of one of our acknowledged pushes to this remote. */
  echo: boolean;
  /** A scan pulled from this remote under that id is stored here. */
  stored: boolean;
  /** It differs from the stored one in anything but its violations and organization. */
  differs: boolean;
  violationsDiffer: boolean;
  organizationDiffers: boolean;
}

export function pulledOutcome(facts: PulledFacts): PulledOutcome {
  // A push coming back wins over everything: storing it would show the scan twice.
  if (facts.echo) return 'echoed';
  if (!facts.stored) return 'new';
  if (facts.differs) return 'replaced';
  if (facts.violationsDiffer || facts.organizationDiffers) return 'violations';
  return 'unchanged';
}

/** How a sync's summary counts an outcome. */
export const reportedAs = (outcome: PulledOutcome): 'echoed' | 'new' | 'unchanged' | 'changed' =>
  outcome === 'violations' || outcome === 'replaced' ? 'changed' : outcome;
