import { TIMELINE_CHUNK, type StoredTimelineEntry } from '../../timeline/timeline-entry';
import { invalidPackage } from '../import-errors';
import { packageScan, type PackageScan, type TimelineSource } from '../package-scan';
import {
  checkEvidenceDocument,
  checkScanDocument,
  parseJsonDocument,
  type EvidenceDocument,
  type ScanDocument,
} from '../read-documents';
import { readTimelineEntry } from '../read-timeline-entries';
import type { InflateBudget } from '../zip/inflate-guard';
import type { PackageArchive } from '../zip/package-archive';

// A ZIP without a manifest, such as a download from the upstream service: entry names are not
// specified, so every .json entry is classified by its shape and scans are matched by id.
// Anything else (a README, a PDF) is never read.

/** The timeline inside the evidence document, converted once and handed on in chunks. */
function inlineTimeline(entry: string, document: EvidenceDocument): TimelineSource {
  const { timeline } = document.evidence;
  if (timeline === undefined) throw invalidPackage('evidence.timeline is required', entry);
  const position = (index: number): string => `evidence.timeline.${index}`;
  const entries: StoredTimelineEntry[] = timeline.map((value, i) => readTimelineEntry(value, entry, position(i)));
  return {
    entry,
    position,
    async *read() {
      for (let start = 0; start < entries.length; start += TIMELINE_CHUNK)
        yield entries.slice(start, start + TIMELINE_CHUNK);
    },
  };
}

/**
 * A document given beside the archive and read as one of its entries: a sync adds the upstream's
 * get-scan answer when its evidence download holds no scan document. `name` is how errors name it.
 */
export interface ExtraDocument {
  name: string;
  json: unknown;
}

/**
 * The package's scans, in the order of their evidence files, each document parsed once; `extra`
 * documents are read after the archive's entries, as if they were more of them, except that an
 * extra scan document for a scan the archive has one of is left out: the archive's own wins.
 */
export async function readUpstream(
  archive: PackageArchive,
  budget: InflateBudget,
  extra: readonly ExtraDocument[] = [],
): Promise<PackageScan[]> {
  const evidenceEntries = new Map<string, { entry: string; document: EvidenceDocument }>();
  const scanEntries = new Map<string, { entry: string; document: ScanDocument }>();
  const documents = async function* (): AsyncGenerator<{ name: string; value: unknown; given?: boolean }> {
    for (const name of archive.entries.keys()) {
      if (!name.toLowerCase().endsWith('.json')) continue;
      yield { name, value: parseJsonDocument((await archive.readJsonBytes(name, budget)).data, name) };
    }
    for (const { name, json } of extra) {
      if (archive.entries.has(name)) throw invalidPackage('given beside the archive and inside it too', name);
      yield { name, value: json, given: true };
    }
  };
  for await (const { name, value, given } of documents()) {
    const object = typeof value === 'object' && value !== null && !Array.isArray(value) ? value : null;
    if (object && 'scan_id' in object && 'evidence' in object) {
      const document = checkEvidenceDocument(value, name);
      const id = document.scan_id;
      if (evidenceEntries.has(id)) throw invalidPackage(`evidence for scan ${id} appears twice`, name);
      evidenceEntries.set(id, { entry: name, document });
    } else if (object && 'id' in object) {
      const document = checkScanDocument(value, name);
      const { id } = document;
      // A scan document given beside the archive stands in for one the archive lacks; the archive's own wins.
      if (scanEntries.has(id) && given) continue;
      if (scanEntries.has(id)) throw invalidPackage(`scan ${id} appears twice`, name);
      scanEntries.set(id, { entry: name, document });
    } else {
      throw invalidPackage('neither the get-evidence shape {scan_id, evidence} nor the get-scan shape {id, ...}', name);
    }
  }
  for (const [id, { entry }] of scanEntries) {
    if (!evidenceEntries.has(id))
      throw invalidPackage(`scan ${id} has no evidence file in the get-evidence shape`, entry);
  }
  if (evidenceEntries.size === 0) {
    throw invalidPackage('neither manifest.json nor any evidence file in the get-evidence shape');
  }
  return [...evidenceEntries].map(([id, evidence]) => {
    const scan = scanEntries.get(id);
    return packageScan({
      id,
      evidenceEntry: evidence.entry,
      evidence: evidence.document,
      scanEntry: scan?.entry ?? null,
      scan: scan?.document ?? null,
      timeline: inlineTimeline(evidence.entry, evidence.document),
      // Such a package does not say what made it.
      origin: null,
    });
  });
}
