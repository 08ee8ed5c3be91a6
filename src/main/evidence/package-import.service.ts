import type { ImportResult } from '../../shared/api/evidence';
import type { ScanStatus, TokenBreakdown, Violation } from '../../shared/api/scans';
import { MANIFEST_PATH, packagePaths, type ManifestFile } from '../../shared/evidence-package';
import { worstSeverityRank } from '../../shared/policy/severity';
import { parseDateOrDateTime } from '../../shared/time';
import { sqliteUnder } from '../db/connection';
import type { Db, Executor } from '../db/database';
import type { NewScan, ScanRow } from '../db/tables/scan.table';
import { toViolation } from '../scans/scan-mapping';
import { findScan, findViolations, insertScan, insertViolations } from '../scans/scans.repository';
import { ApiError } from '../server/api-error';
import { derivedScanId, derivedViolationId } from './import-ids';
import {
  invalidPackage,
  PackageArchive,
  type EntryDigest,
  type ImportLimits,
  type InflateBudget,
} from './package-reader';
import {
  checkEvidenceDocument,
  checkManifest,
  checkScanDocument,
  parseJsonDocument,
  parseTimelineLine,
  toStoredEntry,
  type EvidenceDocument,
  type ScanDocument,
  type StoredEntry,
} from './package-validator';
import { timelineChunks } from './timeline-chunks';
import { TimelineWriter } from './timeline-writer';

/** Rows handed to one insert call (it splits them further) and compared per step. */
const CHUNK = 5000;

/** Where one scan's pieces are in the archive. */
interface ScanSource {
  id: string;
  /** Format 1 always has one; an upstream package may leave it out. */
  scanEntry: string | null;
  evidenceEntry: string;
  /** Format 1: timeline.jsonl. Upstream: null, the timeline is inside the evidence document. */
  timelineEntry: string | null;
  /** Upstream: the documents, parsed once to tell them apart. Format 1 reads them in planScan. */
  parsed?: { evidence: EvidenceDocument; scan: ScanDocument | null };
}

/** The scan's documents, checked and with the upstream defaults still to apply. */
interface ScanContent {
  scan: ScanDocument | null;
  evidence: EvidenceDocument['evidence'];
  violations: Violation[];
  tokenBreakdown: TokenBreakdown;
  /** Upstream only: the inline timeline, converted. */
  inlineTimeline: StoredEntry[] | null;
}

/** What pass 1 learns about a scan and pass 2 needs before it reads the timeline again. */
interface ScanPlan {
  source: ScanSource;
  /** Kept, so that no document is parsed twice; the package's JSON limit bounds what this holds. */
  content: ScanContent;
  first: StoredEntry | null;
  count: number;
}

/** Format-1 manifest entries by path; null for a manifest-less (upstream) package. */
type ManifestIndex = Map<string, ManifestFile> | null;

const failure = (entry: string, message: string): ApiError => invalidPackage(message, entry);

function verifyDigest(manifest: ManifestIndex, entry: string, digest: EntryDigest): void {
  const expected = manifest?.get(entry);
  if (!expected) return;
  if (expected.bytes !== digest.bytes) {
    throw failure(entry, `size ${digest.bytes} does not match the manifest's ${expected.bytes}`);
  }
  if (expected.sha256 !== digest.sha256) throw failure(entry, 'SHA-256 does not match the manifest');
}

async function readJson(
  archive: PackageArchive,
  entry: string,
  budget: InflateBudget,
  manifest: ManifestIndex,
): Promise<unknown> {
  const { data, digest } = await archive.readJsonBytes(entry, budget);
  verifyDigest(manifest, entry, digest);
  return parseJsonDocument(data, entry);
}

// ---- pass 1: which scans, from which entries ----

async function format1Sources(
  archive: PackageArchive,
  budget: InflateBudget,
): Promise<{
  sources: ScanSource[];
  manifest: Map<string, ManifestFile>;
}> {
  const manifestDoc = checkManifest(await readJson(archive, MANIFEST_PATH, budget, null), MANIFEST_PATH);
  const manifest = new Map<string, ManifestFile>();
  for (const file of manifestDoc.files) {
    if (manifest.has(file.path)) throw failure(MANIFEST_PATH, `lists ${file.path} twice`);
    if (!archive.entries.has(file.path))
      throw failure(file.path, 'listed in the manifest but missing from the archive');
    manifest.set(file.path, file);
  }
  for (const name of archive.entries.keys()) {
    if (name !== MANIFEST_PATH && !manifest.has(name)) throw failure(name, 'not listed in the manifest');
  }
  const owned = new Set<string>();
  const sources: ScanSource[] = [];
  for (const id of manifestDoc.scans) {
    const paths = packagePaths(id);
    if (owned.has(paths.scan)) throw failure(MANIFEST_PATH, `lists scan ${id} twice`);
    for (const path of [paths.scan, paths.evidence, paths.timeline]) {
      if (!manifest.has(path)) throw failure(path, `scan ${id} is in the manifest but this file is not`);
      owned.add(path);
    }
    sources.push({ id, scanEntry: paths.scan, evidenceEntry: paths.evidence, timelineEntry: paths.timeline });
  }
  for (const path of manifest.keys()) {
    if (!owned.has(path)) throw failure(path, "listed in the manifest but part of none of the manifest's scans");
  }
  return { sources, manifest };
}

/**
 * A ZIP without a manifest, such as a download from the upstream service: entry names are not
 * specified, so every .json entry is classified by its shape and scans are matched by id.
 * Anything else (a README, a PDF) is never read.
 */
async function upstreamSources(archive: PackageArchive, budget: InflateBudget): Promise<ScanSource[]> {
  const evidenceEntries = new Map<string, { entry: string; document: EvidenceDocument }>();
  const scanEntries = new Map<string, { entry: string; document: ScanDocument }>();
  for (const name of archive.entries.keys()) {
    if (!name.toLowerCase().endsWith('.json')) continue;
    const value = await readJson(archive, name, budget, null);
    const object = typeof value === 'object' && value !== null && !Array.isArray(value) ? value : null;
    if (object && 'scan_id' in object && 'evidence' in object) {
      const document = checkEvidenceDocument(value, name);
      const id = document.scan_id;
      if (evidenceEntries.has(id)) throw failure(name, `evidence for scan ${id} appears twice`);
      evidenceEntries.set(id, { entry: name, document });
    } else if (object && 'id' in object) {
      const document = checkScanDocument(value, name);
      const { id } = document;
      if (scanEntries.has(id)) throw failure(name, `scan ${id} appears twice`);
      scanEntries.set(id, { entry: name, document });
    } else {
      throw failure(name, 'neither the get-evidence shape {scan_id, evidence} nor the get-scan shape {id, ...}');
    }
  }
  for (const [id, { entry }] of scanEntries) {
    if (!evidenceEntries.has(id)) throw failure(entry, `scan ${id} has no evidence file in the get-evidence shape`);
  }
  if (evidenceEntries.size === 0) {
    throw invalidPackage('neither manifest.json nor any evidence file in the get-evidence shape');
  }
  return [...evidenceEntries].map(([id, evidence]) => {
    const scan = scanEntries.get(id);
    return {
      id,
      scanEntry: scan?.entry ?? null,
      evidenceEntry: evidence.entry,
      timelineEntry: null,
      parsed: { evidence: evidence.document, scan: scan?.document ?? null },
    };
  });
}

const sameViolations = (a: readonly Violation[], b: readonly Violation[]): boolean =>
  a.length === b.length &&
  a.every(
    (v, i) =>
      v.id === b[i]!.id &&
      v.rule === b[i]!.rule &&
      v.severity === b[i]!.severity &&
      v.message === b[i]!.message &&
      v.timeline_index === b[i]!.timeline_index,
  );

async function readContent(
  archive: PackageArchive,
  source: ScanSource,
  budget: InflateBudget,
  manifest: ManifestIndex,
): Promise<ScanContent> {
  const { id, evidenceEntry, scanEntry } = source;
  const { parsed } = source;
  const evidenceDoc =
    parsed?.evidence ?? checkEvidenceDocument(await readJson(archive, evidenceEntry, budget, manifest), evidenceEntry);
  if (evidenceDoc.scan_id !== id) throw failure(evidenceEntry, `scan_id is ${evidenceDoc.scan_id}, expected ${id}`);
  const scan = parsed
    ? parsed.scan
    : scanEntry
      ? checkScanDocument(await readJson(archive, scanEntry, budget, manifest), scanEntry)
      : null;
  if (scan && scanEntry && scan.id !== id) throw failure(scanEntry, `id is ${scan.id}, expected ${id}`);
  const { evidence } = evidenceDoc;
  let inlineTimeline: StoredEntry[] | null = null;
  if (source.timelineEntry) {
    if (evidence.timeline !== undefined) {
      throw failure(evidenceEntry, `evidence.timeline must be left out; the timeline is ${source.timelineEntry}`);
    }
  } else {
    if (evidence.timeline === undefined) throw failure(evidenceEntry, 'evidence.timeline is required');
    inlineTimeline = evidence.timeline.map((entry, i) => toStoredEntry(entry, evidenceEntry, `evidence.timeline.${i}`));
    // The converted copy is what is kept; the parsed one can go.
    delete evidence.timeline;
  }
  if (scan && evidence.violations && !sameViolations(scan.violations, evidence.violations)) {
    throw failure(evidenceEntry, `evidence.violations differ from the violations in ${scanEntry}`);
  }
  return {
    scan,
    evidence,
    violations: evidence.violations ?? scan?.violations ?? [],
    tokenBreakdown: evidence.token_breakdown ?? {},
    inlineTimeline,
  };
}

/** The scan's timeline in chunks, checked line by line and for timestamp order. */
async function* timelineOf(
  archive: PackageArchive,
  source: ScanSource,
  content: ScanContent,
  budget: InflateBudget,
  manifest: ManifestIndex,
): AsyncGenerator<StoredEntry[]> {
  let previous = Number.NEGATIVE_INFINITY;
  const inOrder = (entry: StoredEntry, name: string, where: string): StoredEntry => {
    if (entry.timestamp < previous) throw failure(name, `${where}: timestamp is earlier than the entry before it`);
    previous = entry.timestamp;
    return entry;
  };
  const name = source.timelineEntry;
  if (name === null) {
    const timeline = content.inlineTimeline ?? [];
    for (let start = 0; start < timeline.length; start += CHUNK) {
      yield timeline
        .slice(start, start + CHUNK)
        .map((entry, i) => inOrder(entry, source.evidenceEntry, `evidence.timeline.${start + i}`));
    }
    return;
  }
  let line = 0;
  const lines = archive.readLines(name, budget, (digest) => verifyDigest(manifest, name, digest));
  for await (const batch of lines) {
    const entries: StoredEntry[] = [];
    for (const text of batch) {
      line += 1;
      if (text.trim() === '') throw failure(name, `line ${line}: empty line`);
      entries.push(inOrder(parseTimelineLine(text, name, line), name, `line ${line}`));
    }
    yield entries;
  }
}

/** Pass 1 for one scan: everything checked, only a few numbers kept. */
async function planScan(
  archive: PackageArchive,
  source: ScanSource,
  budget: InflateBudget,
  manifest: ManifestIndex,
  violationIds: Set<string>,
): Promise<ScanPlan> {
  const content = await readContent(archive, source, budget, manifest);
  let count = 0;
  let sum = 0n;
  let first: StoredEntry | null = null;
  for await (const chunk of timelineOf(archive, source, content, budget, manifest)) {
    first ??= chunk[0] ?? null;
    count += chunk.length;
    // A long timeline of large counts can leave a double's exact range, so the chunk's sum is
    // carried over into a BigInt before it could; a BigInt per entry cost more than the check.
    let partial = 0;
    for (const entry of chunk) {
      if (partial > Number.MAX_SAFE_INTEGER - entry.tokens) {
        sum += BigInt(partial);
        partial = 0;
      }
      partial += entry.tokens;
    }
    sum += BigInt(partial);
  }
  const where = source.evidenceEntry;
  if (content.evidence.request_count !== count) {
    throw failure(
      where,
      `evidence.request_count is ${content.evidence.request_count} but the timeline has ${count} entries`,
    );
  }
  if (BigInt(content.evidence.total_tokens) !== sum) {
    throw failure(
      where,
      `evidence.total_tokens is ${content.evidence.total_tokens} but the timeline's tokens sum to ${sum}`,
    );
  }
  for (const violation of content.violations) {
    if (violation.timeline_index !== null && violation.timeline_index >= count) {
      throw failure(
        where,
        `violation ${violation.id}: timeline_index ${violation.timeline_index} is past the timeline's ${count} entries`,
      );
    }
    if (violationIds.has(violation.id))
      throw failure(where, `violation id ${violation.id} appears twice in the package`);
    violationIds.add(violation.id);
  }
  if (!first && (!content.scan || content.scan.action === undefined)) {
    throw failure(
      where,
      content.scan
        ? 'the scan has no action and an empty timeline to take it from'
        : 'no scan file and an empty timeline: created_at and action are unknown',
    );
  }
  if (content.scan && parseDateOrDateTime(content.scan.created_at) === null) {
    throw failure(source.scanEntry!, 'created_at must be an ISO 8601 date-time');
  }
  return { source, content, first, count };
}

// ---- pass 2: compare and write ----

/** The scan row SPEC.md §8 asks for, stored as `id`, with the upstream defaults applied. */
function scanRow(plan: ScanPlan, content: ScanContent, userId: string, id: string): NewScan {
  const { scan } = content;
  const first = plan.first;
  return {
    id,
    created_at: scan ? parseDateOrDateTime(scan.created_at)! : first!.timestamp,
    tool: scan?.tool ?? 'unknown',
    action: scan?.action ?? first!.action,
    tokens: scan?.tokens ?? content.evidence.total_tokens,
    status: scan?.status ?? ('completed' satisfies ScanStatus),
    source: 'imported',
    organization_id: null,
    submitted_by: userId,
    token_breakdown: JSON.stringify(content.tokenBreakdown),
    request_count: plan.count,
    violation_count: content.violations.length,
    worst_severity: worstSeverityRank(content.violations.map((v) => v.severity)),
  };
}

/** Key order is not content: `{a, b}` and `{b, a}` are the same breakdown. */
const canonical = (breakdown: TokenBreakdown): string =>
  JSON.stringify(Object.entries(breakdown).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));

/**
 * The first way the stored scan differs from the package, or null when they are the same scan.
 * Organization, source and owner are where a scan lives, not what it is, so they do not count.
 */
async function difference(
  trx: Executor,
  stored: ScanRow,
  row: NewScan,
  content: ScanContent,
  timeline: AsyncIterable<StoredEntry[]>,
): Promise<string | null> {
  for (const field of ['tool', 'action', 'tokens', 'status', 'created_at'] as const) {
    if (stored[field] !== row[field]) return `${field} differs`;
  }
  if (canonical(JSON.parse(stored.token_breakdown) as TokenBreakdown) !== canonical(content.tokenBreakdown)) {
    return 'token_breakdown differs';
  }
  if (!sameViolations((await findViolations(trx, stored.id)).map(toViolation), content.violations)) {
    return 'violations differ';
  }
  if (stored.request_count !== row.request_count) return 'the timeline differs in length';
  // Both sides a chunk at a time: a million entries compare in constant memory.
  const storedChunks = timelineChunks(trx, stored.id, CHUNK);
  let rows: StoredEntry[] = [];
  let at = 0;
  let index = 0;
  for await (const chunk of timeline) {
    for (const entry of chunk) {
      if (at === rows.length) {
        const next = await storedChunks.next();
        if (next.done) return 'the timeline differs in length';
        rows = next.value;
        at = 0;
      }
      const mine = rows[at++]!;
      if (mine.timestamp !== entry.timestamp || mine.action !== entry.action || mine.tokens !== entry.tokens) {
        await storedChunks.return(undefined);
        return `timeline entry ${index} differs`;
      }
      index += 1;
    }
  }
  await storedChunks.return(undefined);
  return null;
}

/** Where an import stores a package scan, and the scan already there, if any. */
interface ImportTarget {
  id: string;
  /** Stored under an id derived from the importer and the package id, not under the package id. */
  derived: boolean;
  existing: ScanRow | undefined;
}

/**
 * docs/security.md, Imported ids: a package id names the importer's own scan, or else the scan is
 * stored under derivedScanId(user, id). Another user's scan with the package id changes nothing:
 * it is never compared, never blocks, and both cases run the same two lookups.
 */
async function importTarget(trx: Executor, userId: string, packageId: string, entry: string): Promise<ImportTarget> {
  const literal = await findScan(trx, packageId);
  if (literal?.submitted_by === userId) return { id: packageId, derived: false, existing: literal };
  const id = derivedScanId(userId, packageId);
  const existing = await findScan(trx, id);
  // Nobody can import under another user's derived id; only a scan imported before the rule can hold one.
  if (existing && existing.submitted_by !== userId) {
    throw new ApiError('conflict', `scan ${packageId} cannot be stored: the id it would take is in use`, [
      { field: 'scan_id', entry, message: `${packageId}: the id it would be stored under is in use` },
    ]);
  }
  return { id, derived: true, existing };
}

/** A derived scan's violations, under ids derived the same way. */
const withDerivedViolations = (content: ScanContent, userId: string): ScanContent => ({
  ...content,
  violations: content.violations.map((violation) => ({ ...violation, id: derivedViolationId(userId, violation.id) })),
});

/**
 * Violation ids are unique across the store. A taken one is named by the package's id for it,
 * never by the scan that holds it, which may be another user's.
 */
async function refuseTakenViolationIds(
  trx: Executor,
  packageScanId: string,
  entry: string,
  violations: readonly Violation[],
  packageViolations: readonly Violation[],
): Promise<void> {
  for (let start = 0; start < violations.length; start += 500) {
    const ids = violations.slice(start, start + 500).map((v) => v.id);
    const taken = await trx.selectFrom('violations').select('id').where('id', 'in', ids).executeTakeFirst();
    if (taken) {
      const packageId = packageViolations[violations.findIndex((v) => v.id === taken.id)]!.id;
      const message = `violation ${packageId} of scan ${packageScanId}: the id it would be stored under is in use`;
      throw new ApiError('conflict', message, [{ field: 'violations', entry, message }]);
    }
  }
}

/**
 * Imports an evidence package (SPEC.md §8) from a spooled ZIP. Pass 1 reads and checks all of it
 * without touching the store, parsing each JSON document once; pass 2 reads the timelines again
 * inside one transaction and writes, so the
 * store is held only for the writing and a bad package changes nothing.
 */
export async function importEvidencePackage(
  db: Db,
  userId: string,
  archivePath: string,
  limits: ImportLimits,
): Promise<ImportResult> {
  const archive = await PackageArchive.open(archivePath, limits);
  try {
    const checking: InflateBudget = { inflated: 0 };
    let sources: ScanSource[];
    let manifest: ManifestIndex = null;
    if (archive.entries.has(MANIFEST_PATH)) {
      ({ sources, manifest } = await format1Sources(archive, checking));
    } else {
      sources = await upstreamSources(archive, checking);
    }
    const violationIds = new Set<string>();
    const plans: ScanPlan[] = [];
    for (const source of sources) plans.push(await planScan(archive, source, checking, manifest, violationIds));

    const writing: InflateBudget = { inflated: 0 };
    return await db.transaction().execute(async (trx) => {
      const imported: string[] = [];
      const unchanged: string[] = [];
      const ids = new Map<string, string>();
      // The writer's statements run on the raw handle inside this transaction, so they are part of it.
      const writer = new TimelineWriter(sqliteUnder(db), db);
      for (const plan of plans) {
        const { id: packageId, evidenceEntry: entry } = plan.source;
        const packaged = plan.content;
        const target = await importTarget(trx, userId, packageId, entry);
        const { id } = target;
        ids.set(packageId, id);
        const content = target.derived ? withDerivedViolations(packaged, userId) : packaged;
        const row = scanRow(plan, content, userId, id);
        // The manifest was verified in pass 1 and the spooled file is ours: no second check.
        const timeline = timelineOf(archive, plan.source, content, writing, null);
        if (target.existing) {
          // The importer's own scan: naming what differs tells them only about their own data.
          const why = await difference(trx, target.existing, row, content, timeline);
          if (why !== null) {
            const stored = id === packageId ? '' : ` (stored as ${id})`;
            throw new ApiError('conflict', `scan ${packageId}${stored} already exists with different content`, [
              { field: 'scan_id', entry, message: `${packageId}: ${why}` },
            ]);
          }
          unchanged.push(id);
          continue;
        }
        await refuseTakenViolationIds(trx, packageId, entry, content.violations, packaged.violations);
        await insertScan(trx, row);
        writer.begin(id);
        for await (const chunk of timeline) writer.write(chunk);
        writer.end();
        await insertViolations(
          trx,
          content.violations.map((violation, i) => ({ ...violation, scan_id: id, seq: i })),
        );
        imported.push(id);
      }
      // fromEntries defines each key as data: a package id `__proto__` stays a key like any other.
      return { imported, unchanged, ids: Object.fromEntries(ids) };
    });
  } finally {
    archive.close();
  }
}
