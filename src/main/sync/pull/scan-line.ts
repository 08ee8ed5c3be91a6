import { Type, type Static } from 'typebox';
import { SyncScanLine, SyncScanSkipped } from '../../../shared/api/sync';
import { packageError } from '../../evidence/import/import-errors';
import { packageScan, type PackageScan } from '../../evidence/import/package-scan';
import { checkScanDocument } from '../../evidence/import/read-documents';
import type { StoredTimelineEntry } from '../../evidence/timeline/timeline-entry';
import { compileOnFirstCall } from '../../http/compile-on-first-call';
import { detailsFromAjv, makeAjv } from '../../http/validation';

// One line of a `POST /v1/sync/scans` answer (docs/contract/api.md#scans-for-a-sync), parsed and
// checked as an import checks a package's documents: the scan by the import's own get-scan shape,
// the rest by the line's shape, then the documents against each other (package-scan.ts); the
// timeline's checks that need it whole (order, counts, sums) come with the store's (scan-check.ts).
// A line that fails is the refusal of the whole answer (invalid_package), which changes nothing.
// No I/O.

/** The line's shape with its scan left to the import's check, which words its errors. */
const LineShape = Type.Object({ ...SyncScanLine.properties, scan: Type.Object({}) }, { additionalProperties: false });
type LineShape = Static<typeof LineShape>;

const utf8 = new TextDecoder('utf-8', { fatal: true });
// Compiled when a pull first reads a line, not by every process that loads the server.
const ajv = makeAjv(false);
const validLine = compileOnFirstCall(() => ajv.compile<LineShape>(LineShape));
const validSkipped = compileOnFirstCall(() => ajv.compile<SyncScanSkipped>(SyncScanSkipped));

/** What an answer's line holds: a scan to store, or one the answer leaves out. */
export type ScanLine = { kind: 'scan'; scan: PackageScan } | { kind: 'skipped'; id: string; why: 'gone' | 'package' };

/** Where errors say the line is: `POST /v1/sync/scans line 3`. */
export const lineName = (line: number): string => `POST /v1/sync/scans line ${line}`;

/** A scan's timeline held by its line: read as often as the store asks. */
function heldTimeline(entry: string, entries: StoredTimelineEntry[]): PackageScan['timeline'] {
  return {
    entry,
    position: (index) => `timeline.${index}`,
    async *read() {
      if (entries.length > 0) yield entries;
    },
  };
}

/**
 * Line number `line` (from 1) of the answer, parsed from its bytes: it must be about `askedId`,
 * the id asked in that place.
 */
export function readScanLine(bytes: Buffer, line: number, askedId: string): ScanLine {
  const entry = lineName(line);
  let value: unknown;
  try {
    value = JSON.parse(utf8.decode(bytes));
  } catch (error) {
    throw packageError({ entry, problems: [`not UTF-8 JSON (${(error as Error).message})`] });
  }
  if (validSkipped(value)) {
    if (value.id !== askedId) throw packageError({ entry, problems: [`is about ${value.id}, expected ${askedId}`] });
    return { kind: 'skipped', id: value.id, why: value.skipped };
  }
  if (!validLine(value)) {
    const problems = detailsFromAjv(validLine.errors ?? [], 'line').map((d) => `${d.field} ${d.message}`);
    throw packageError({ entry, context: 'not a scan line', problems });
  }
  const scan = checkScanDocument(value.scan, `${entry} scan`);
  if (scan.id !== askedId) throw packageError({ entry, problems: [`is about ${scan.id}, expected ${askedId}`] });
  const entries = value.timeline.map(([timestamp, action, tokens]) => ({ timestamp, action, tokens }));
  return {
    kind: 'scan',
    scan: packageScan({
      id: scan.id,
      evidenceEntry: entry,
      evidence: { scan_id: scan.id, evidence: { ...value.evidence, violations: scan.violations } },
      scanEntry: `${entry} scan`,
      scan,
      timeline: heldTimeline(entry, entries),
      origin: null,
    }),
  };
}
