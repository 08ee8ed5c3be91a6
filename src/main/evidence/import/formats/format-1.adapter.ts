import { MANIFEST_PATH, packagePaths, type ManifestFile } from '../../../../shared/evidence-package';
import { JsonlLineError } from '../../jsonl/line-splitter';
import type { StoredTimelineEntry } from '../../timeline/timeline-entry';
import { invalidPackage, lineError } from '../import-errors';
import { checkEvidenceDocument, checkManifest, checkScanDocument, parseJsonDocument } from '../read-documents';
import { TimelineLineParser } from '../read-timeline-entries';
import type { EntryDigest, InflateBudget } from '../zip/inflate-guard';
import type { PackageArchive } from '../zip/package-archive';
import { packageOrigin } from '../package-origin';
import { packageScan, type PackageScan, type TimelineSource } from '../package-scan';

// Format 1 (docs/contract/package-format.md#manifest): manifest.json lists every file with its
// size and SHA-256, and each scan as scans/<id>/{scan.json, evidence.json, timeline.jsonl}.

export const isFormat1 = (archive: PackageArchive): boolean => archive.entries.has(MANIFEST_PATH);

type Manifest = Map<string, ManifestFile>;

function verifyDigest(manifest: Manifest, entry: string, digest: EntryDigest): void {
  const expected = manifest.get(entry)!;
  if (expected.bytes !== digest.bytes) {
    throw invalidPackage(`size ${digest.bytes} does not match the manifest's ${expected.bytes}`, entry);
  }
  if (expected.sha256 !== digest.sha256) throw invalidPackage('SHA-256 does not match the manifest', entry);
}

async function readJson(
  archive: PackageArchive,
  entry: string,
  budget: InflateBudget,
  manifest: Manifest | null,
): Promise<unknown> {
  const { data, digest } = await archive.readJsonBytes(entry, budget);
  if (manifest) verifyDigest(manifest, entry, digest);
  return parseJsonDocument(data, entry);
}

/** The manifest, held to the archive: every file listed is there, nothing is there unlisted. */
async function readManifest(
  archive: PackageArchive,
  budget: InflateBudget,
): Promise<{ scans: string[]; manifest: Manifest; generator: string }> {
  const document = checkManifest(await readJson(archive, MANIFEST_PATH, budget, null), MANIFEST_PATH);
  const manifest: Manifest = new Map();
  for (const file of document.files) {
    if (manifest.has(file.path)) throw invalidPackage(`lists ${file.path} twice`, MANIFEST_PATH);
    if (!archive.entries.has(file.path)) {
      throw invalidPackage('listed in the manifest but missing from the archive', file.path);
    }
    manifest.set(file.path, file);
  }
  for (const name of archive.entries.keys()) {
    if (name !== MANIFEST_PATH && !manifest.has(name)) throw invalidPackage('not listed in the manifest', name);
  }
  const owned = new Set<string>();
  for (const id of document.scans) {
    const paths = packagePaths(id);
    if (owned.has(paths.scan)) throw invalidPackage(`lists scan ${id} twice`, MANIFEST_PATH);
    for (const path of [paths.scan, paths.evidence, paths.timeline]) {
      if (!manifest.has(path)) throw invalidPackage(`scan ${id} is in the manifest but this file is not`, path);
      owned.add(path);
    }
  }
  for (const path of manifest.keys()) {
    if (!owned.has(path)) throw invalidPackage("listed in the manifest but part of none of the manifest's scans", path);
  }
  return { scans: document.scans, manifest, generator: document.generator };
}

/** timeline.jsonl, a line per entry, its digest checked against the manifest on every read. */
function jsonlTimeline(archive: PackageArchive, name: string, manifest: Manifest): TimelineSource {
  return {
    entry: name,
    position: (index) => `line ${index + 1}`,
    async *read(budget) {
      const parser = new TimelineLineParser(name);
      const runs = archive.readLineRuns(name, budget, (digest) => verifyDigest(manifest, name, digest));
      // Entries are objects reused from chunk to chunk (TimelineSource.read): made afresh, a
      // million of them outlived enough young-generation collections to be promoted, and the
      // import's heap grew by some 60 MB of garbage before a full collection.
      const reused: StoredTimelineEntry[] = [];
      for await (const run of runs) {
        const entries: StoredTimelineEntry[] = [];
        try {
          run.forEach((bytes, start, end, line) => {
            const at = entries.length;
            const entry = parser.parse(bytes, start, end, line, reused[at]);
            reused[at] ??= entry;
            entries.push(entry);
          });
        } catch (error) {
          throw error instanceof JsonlLineError ? lineError(error, name) : error;
        }
        yield entries;
      }
    },
  };
}

/** The package's scans, in the manifest's order, their documents read and checked once. */
export async function readFormat1(archive: PackageArchive, budget: InflateBudget): Promise<PackageScan[]> {
  const { scans, manifest, generator } = await readManifest(archive, budget);
  const result: PackageScan[] = [];
  for (const id of scans) {
    const paths = packagePaths(id);
    const evidence = checkEvidenceDocument(await readJson(archive, paths.evidence, budget, manifest), paths.evidence);
    if (evidence.evidence.timeline !== undefined) {
      throw invalidPackage(`evidence.timeline must be left out; the timeline is ${paths.timeline}`, paths.evidence);
    }
    const scan = checkScanDocument(await readJson(archive, paths.scan, budget, manifest), paths.scan);
    result.push(
      packageScan({
        id,
        evidenceEntry: paths.evidence,
        evidence,
        scanEntry: paths.scan,
        scan,
        timeline: jsonlTimeline(archive, paths.timeline, manifest),
        origin: packageOrigin(generator),
      }),
    );
  }
  return result;
}
