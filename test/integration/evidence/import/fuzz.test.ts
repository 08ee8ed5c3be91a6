/**
 * Property-based fuzzing of the evidence import (docs/contract/package-format.md#import): valid packages (an exported one and
 * a manifest-less upstream one) mutated at the byte level (bit flips, overwrites, truncations,
 * header sizes that lie in the local or the central header, names that differ between the two) and
 * at the entry level (renames, duplicates, drops, extra entries, odd flags). Whatever comes in:
 * never a 5xx; a 4xx has the error shape and changes nothing; a 2xx only when what was imported is
 * exactly the scans the pristine package holds (a manifest-less package may validly lose a scan
 * whose file was renamed or dropped; only a byte changed inside its JSON can validly alter one).
 */
import fc from 'fast-check';
import { fromBufferPromise } from 'yauzl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { derivedViolationId } from '../../../../src/main/evidence/import/import-ids';
import type { Evidence, ImportResult } from '../../../../src/shared/api/evidence';
import type { Scan } from '../../../../src/shared/api/scans';
import { errorShapeProblem, storeFingerprint, testSeed } from '../../../helpers/reliability';
import { createOrg, putPolicy, submitScan } from '../../../helpers/scan-fixtures';
import { createTestContext, type TestContext } from '../../../helpers/test-app';
import { buildZip, type ForgedEntry } from '../../../helpers/zip-builder';

const RUNS = { bytes: 250, headers: 150, entries: 200 } as const;

const seed = testSeed('fuzz-import');
let ctx: TestContext;
interface Imported {
  scan: Scan;
  evidence: Evidence;
}
/** What the pristine packages import as (scan and evidence per id), read from a store that took them. */
const expected = new Map<string, Imported>();
/**
 * The upstream shapes make the scan file optional: a package that lost it (renamed, dropped) is a
 * valid package whose scan gets the defaults of docs/contract/package-format.md#upstream-packages. These are those outcomes.
 */
const withoutScanFile = new Map<string, Imported>();
let exported: Buffer;
let exportedIds: string[];
let upstream: Buffer;
let upstreamIds: string[];

const json = (value: unknown): Buffer => Buffer.from(JSON.stringify(value));

function timeline(n: number, start: number): { timestamp: string; action: string; tokens: number }[] {
  return Array.from({ length: n }, (_, i) => ({
    timestamp: new Date(start + i * 1500).toISOString(),
    action: i % 3 === 0 ? 'shell' : 'read',
    tokens: (i % 5) * 13 + 1,
  }));
}

function upstreamPackage(withScanFile = true): Buffer {
  const first = timeline(6, Date.UTC(2026, 9, 1, 8));
  const second = timeline(3, Date.UTC(2026, 9, 2, 9));
  const sum = (entries: { tokens: number }[]): number => entries.reduce((total, entry) => total + entry.tokens, 0);
  const violation = {
    id: 'vio_fuzz_up_1',
    rule: 'action.blocked',
    severity: 'high',
    message: 'shell',
    timeline_index: 0,
  };
  return buildZip([
    {
      name: 'download/evidence-a.json',
      data: json({
        scan_id: 'fuzz_up_a',
        evidence: {
          request_count: first.length,
          total_tokens: sum(first),
          timeline: first,
          token_breakdown: { input: 3 },
          violations: [violation],
        },
      }),
    },
    ...(withScanFile
      ? [
          {
            name: 'download/scan-a.json',
            data: json({
              id: 'fuzz_up_a',
              created_at: '2026-10-01T08:00:00Z',
              tool: 'copilot',
              tokens: sum(first),
              status: 'completed',
              violations: [violation],
            }),
          },
        ]
      : []),
    {
      name: 'b.json',
      data: json({ scan_id: 'fuzz_up_b', evidence: { request_count: 3, total_tokens: sum(second), timeline: second } }),
    },
    { name: 'README.txt', data: Buffer.from('not read') },
  ]);
}

/** The pristine packages' violation ids: what a derived copy's violation ids are renamed back to. */
const violationIds: string[] = ['vio_fuzz_up_1'];

/**
 * Package scan `packageId` as `target`'s owner imported it (stored as `ids[packageId]`), in the
 * package's terms: a scan the owner did not own is stored under derived scan and violation ids
 * (docs/security.md, Imported ids), which differ per owner; they are renamed back.
 */
async function readBack(target: TestContext, packageId: string, ids: Record<string, string>): Promise<Imported> {
  const id = ids[packageId]!;
  const scan = await target.request({ method: 'GET', url: `/v1/scans/${id}` });
  const evidence = await target.request({ method: 'GET', url: `/v1/scans/${id}/evidence` });
  expect(scan.statusCode, scan.body).toBe(200);
  expect(evidence.statusCode, evidence.body).toBe(200);
  const back = new Map(violationIds.map((v) => [derivedViolationId(target.owner.id, v), v]));
  const renamed = (list: Scan['violations']) => list.map((v) => ({ ...v, id: back.get(v.id) ?? v.id }));
  const read = { scan: scan.json() as Scan, evidence: evidence.json() as Evidence };
  const { violations } = read.evidence.evidence;
  return {
    scan: { ...read.scan, id: packageId, violations: renamed(read.scan.violations) },
    evidence: {
      scan_id: packageId,
      evidence: { ...read.evidence.evidence, ...(violations ? { violations: renamed(violations) } : {}) },
    },
  };
}

// ---- a minimal view of a ZIP's records, to patch headers in place ----

interface ZipRecord {
  /** Offset of the central directory record. */
  central: number;
  /** Offset of the local header. */
  local: number;
  nameLength: number;
}

/** The central directory's records, from the end-of-central-directory record (no archive comment). */
function records(zip: Buffer): ZipRecord[] {
  const eocd = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (eocd < 0) return [];
  const count = zip.readUInt16LE(eocd + 10);
  let at = zip.readUInt32LE(eocd + 16);
  const found: ZipRecord[] = [];
  for (let i = 0; i < count && at + 46 <= zip.length; i += 1) {
    const nameLength = zip.readUInt16LE(at + 28);
    found.push({ central: at, local: zip.readUInt32LE(at + 42), nameLength });
    at += 46 + nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
  }
  return found;
}

type HeaderField = 'crc' | 'compressedSize' | 'uncompressedSize' | 'method' | 'flags' | 'name' | 'nameLength';
/** Offsets within a local header and a central record. */
const LOCAL: { [K in HeaderField]: number } = {
  flags: 6,
  method: 8,
  crc: 14,
  compressedSize: 18,
  uncompressedSize: 22,
  nameLength: 26,
  name: 30,
};
const CENTRAL: { [K in HeaderField]: number } = {
  flags: 8,
  method: 10,
  crc: 16,
  compressedSize: 20,
  uncompressedSize: 24,
  nameLength: 28,
  name: 46,
};

interface HeaderPatch {
  record: number;
  where: 'local' | 'central' | 'both';
  field: HeaderField;
  /** For numbers: how to change the value; for names: the byte to put at `position`. */
  value: number;
  position: number;
}

function patchHeader(zip: Buffer, patch: HeaderPatch): Buffer {
  const list = records(zip);
  if (list.length === 0) return zip;
  const record = list[patch.record % list.length]!;
  const copy = Buffer.from(zip);
  const bases = [
    ...(patch.where !== 'central' ? [record.local] : []),
    ...(patch.where !== 'local' ? [record.central] : []),
  ];
  for (const base of bases) {
    const offsets = base === record.central ? CENTRAL : LOCAL;
    const at = base + offsets[patch.field];
    if (at + 4 > copy.length) continue;
    switch (patch.field) {
      case 'crc':
      case 'compressedSize':
      case 'uncompressedSize': {
        const old = copy.readUInt32LE(at);
        // Off by a little, doubled, zeroed, or huge: the lies a hostile header tells.
        const values = [old + 1, old - 1, old * 2, 0, 0xffffffff, old + 200, patch.value];
        copy.writeUInt32LE(values[patch.value % values.length]! >>> 0, at);
        break;
      }
      case 'method':
      case 'flags':
      case 'nameLength': {
        const old = copy.readUInt16LE(at);
        const values = [0, 8, 1, 99, old ^ 0x1, old ^ 0x8, old + 1, old - 1];
        copy.writeUInt16LE(values[patch.value % values.length]! & 0xffff, at);
        break;
      }
      case 'name': {
        const position = at + (patch.position % Math.max(record.nameLength, 1));
        copy[position] = patch.value & 0xff;
        break;
      }
    }
  }
  return copy;
}

// ---- entry-level mutations: rebuild the archive from its (name, data) entries ----

async function entriesOf(zip: Buffer): Promise<ForgedEntry[]> {
  const archive = await fromBufferPromise(zip, { lazyEntries: true });
  const entries: ForgedEntry[] = [];
  for await (const entry of archive.eachEntry()) {
    const chunks: Buffer[] = [];
    for await (const chunk of (await archive.openReadStreamPromise(entry)) as AsyncIterable<Buffer>) chunks.push(chunk);
    entries.push({ name: entry.fileName, data: Buffer.concat(chunks) });
  }
  return entries;
}

type EntryMutation =
  | { kind: 'rename'; index: number; name: string }
  | { kind: 'duplicate'; index: number }
  | { kind: 'drop'; index: number }
  | { kind: 'extra'; name: string; data: Uint8Array }
  | { kind: 'swap'; a: number; b: number }
  | { kind: 'stored'; index: number }
  | { kind: 'flags'; index: number; flags: number }
  | { kind: 'symlink'; index: number }
  | { kind: 'dataDescriptor'; index: number }
  | { kind: 'zip64'; index: number }
  | { kind: 'content'; index: number; at: number; byte: number }
  | { kind: 'sizes'; index: number; compressed: number | null; uncompressed: number | null; crc: number | null };

const NAMES = [
  '../evil.json',
  '/abs.json',
  'C:/x.json',
  'a\\b.json',
  'nul\0.json',
  '',
  'dir/',
  '__MACOSX/._x.json',
  '.DS_Store',
  'manifest.json',
  'MANIFEST.JSON',
  'notes.txt',
  'scans/x/scan.json',
  'ü/ünïcode.json',
  'a'.repeat(300) + '.json',
];

const entryMutation = (): fc.Arbitrary<EntryMutation> =>
  fc.oneof(
    fc.record({
      kind: fc.constant('rename' as const),
      index: fc.nat(),
      name: fc.oneof(fc.constantFrom(...NAMES), fc.string({ maxLength: 30 })),
    }),
    fc.record({ kind: fc.constant('duplicate' as const), index: fc.nat() }),
    fc.record({ kind: fc.constant('drop' as const), index: fc.nat() }),
    fc.record({
      kind: fc.constant('extra' as const),
      name: fc.constantFrom(...NAMES),
      data: fc.oneof(
        fc.uint8Array({ maxLength: 50 }),
        fc.constant(new Uint8Array(json({ scan_id: 'x', evidence: {} }))),
      ),
    }),
    fc.record({ kind: fc.constant('swap' as const), a: fc.nat(), b: fc.nat() }),
    fc.record({ kind: fc.constant('stored' as const), index: fc.nat() }),
    fc.record({ kind: fc.constant('flags' as const), index: fc.nat(), flags: fc.constantFrom(0x1, 0x40, 0x2000, 0x8) }),
    fc.record({ kind: fc.constant('symlink' as const), index: fc.nat() }),
    fc.record({ kind: fc.constant('dataDescriptor' as const), index: fc.nat() }),
    fc.record({ kind: fc.constant('zip64' as const), index: fc.nat() }),
    fc.record({ kind: fc.constant('content' as const), index: fc.nat(), at: fc.nat(), byte: fc.nat({ max: 255 }) }),
    fc.record({
      kind: fc.constant('sizes' as const),
      index: fc.nat(),
      compressed: fc.option(fc.nat({ max: 100_000 }), { nil: null }),
      uncompressed: fc.option(fc.oneof(fc.nat({ max: 100_000 }), fc.constant(2 ** 31)), { nil: null }),
      crc: fc.option(fc.nat(), { nil: null }),
    }),
  );

function applyEntryMutations(base: readonly ForgedEntry[], mutations: readonly EntryMutation[]): Buffer {
  const entries = base.map((entry) => ({ ...entry }));
  const pick = (index: number): ForgedEntry | undefined => entries[index % Math.max(entries.length, 1)];
  for (const mutation of mutations) {
    const target = 'index' in mutation ? pick(mutation.index) : undefined;
    switch (mutation.kind) {
      case 'rename':
        if (target) target.name = mutation.name;
        break;
      case 'duplicate':
        if (target) entries.push({ ...target });
        break;
      case 'drop':
        entries.splice(mutation.index % Math.max(entries.length, 1), 1);
        break;
      case 'extra':
        entries.push({ name: mutation.name, data: Buffer.from(mutation.data) });
        break;
      case 'swap': {
        const a = mutation.a % Math.max(entries.length, 1);
        const b = mutation.b % Math.max(entries.length, 1);
        if (entries[a] && entries[b]) [entries[a], entries[b]] = [entries[b], entries[a]];
        break;
      }
      case 'stored':
        if (target) target.method = 0;
        break;
      case 'flags':
        if (target) target.flags = mutation.flags;
        break;
      case 'symlink':
        if (target) target.externalAttributes = (0o120777 << 16) >>> 0;
        break;
      case 'dataDescriptor':
        if (target) target.dataDescriptor = true;
        break;
      case 'zip64':
        if (target) target.zip64 = true;
        break;
      case 'content':
        if (target?.data && target.data.length > 0) {
          // The CRC follows the new content: only the JSON checks (and the manifest's SHA-256) can catch it.
          const data = Buffer.from(target.data);
          data[mutation.at % data.length] = mutation.byte;
          target.data = data;
        }
        break;
      case 'sizes':
        if (target) {
          if (mutation.compressed !== null) target.compressedSize = mutation.compressed;
          if (mutation.uncompressed !== null) target.uncompressedSize = mutation.uncompressed;
          if (mutation.crc !== null) target.crc32 = mutation.crc;
        }
        break;
    }
  }
  return buildZip(entries);
}

// ---- the import and its checks ----

/**
 * Posts the archive and checks the outcome. A 2xx must mean: exactly the pristine package's scans,
 * each as the pristine package imports it. Scans newly imported from the upstream package are
 * removed again afterwards, so that every run starts from the same store.
 */
/**
 * What a 2xx may hold: `exact`, the pristine package's scans; `subset`, some of them (a package
 * without a manifest that lost an entry is a valid smaller one); `altered`, any readable scans: a
 * byte changed inside a JSON value of a package without a manifest (its CRC recomputed) can make
 * a valid but different package, and nothing can tell it from an original.
 */
type Oracle = 'exact' | 'subset' | 'altered';

const oracleFor = (name: PackageName): Oracle => (name === 'exported' ? 'exact' : 'subset');

async function importAndCheck(zip: Buffer, ids: readonly string[], label: string, oracle: Oracle): Promise<number> {
  const before = await storeFingerprint(ctx.db);
  const response = await ctx.request({
    method: 'POST',
    url: '/v1/evidence/imports',
    headers: { 'content-type': 'application/zip' },
    payload: zip,
  });
  const where = `${label}: ${response.statusCode} ${response.body.slice(0, 300)}`;
  expect(response.statusCode, where).toBeLessThan(500);
  if (response.statusCode >= 400) {
    expect(
      errorShapeProblem(response.statusCode, response.headers['content-type'] as string, response.body),
      where,
    ).toBeNull();
    expect(await storeFingerprint(ctx.db), `${where}: a refused import changed the store`).toBe(before);
    return response.statusCode;
  }
  expect(response.statusCode, where).toBe(201);
  const result = response.json() as ImportResult;
  try {
    // Package ids; the lists hold the ids they are stored under.
    const got = Object.keys(result.ids).sort();
    expect([...result.imported, ...result.unchanged].sort(), where).toEqual(Object.values(result.ids).sort());
    expect(got.length, where).toBeGreaterThan(0);
    if (oracle === 'exact') expect(got, where).toEqual([...ids].sort());
    if (oracle === 'subset') for (const id of got) expect(ids, where).toContain(id);
    for (const id of got) {
      const actual = await readBack(ctx, id, result.ids);
      if (oracle === 'altered') continue;
      const outcomes = [expected.get(id), ...(oracle === 'exact' ? [] : [withoutScanFile.get(id)])];
      expect(outcomes, `${where}: ${id} differs from the pristine package's`).toContainEqual(actual);
    }
  } finally {
    // Undone even when a check fails, so that shrinking replays against the same store.
    if (result.imported.length > 0) {
      await ctx.db.transaction().execute(async (trx) => {
        await trx.deleteFrom('violations').where('scan_id', 'in', result.imported).execute();
        await trx.deleteFrom('timelines').where('scan_id', 'in', result.imported).execute();
        await trx.deleteFrom('scans').where('id', 'in', result.imported).execute();
      });
    }
  }
  expect(await storeFingerprint(ctx.db), `${where}: the store differs after undoing the import`).toBe(before);
  return response.statusCode;
}

const PACKAGES = ['exported', 'upstream'] as const;
type PackageName = (typeof PACKAGES)[number];
const packageOf = (name: PackageName): { zip: Buffer; ids: string[] } =>
  name === 'exported' ? { zip: exported, ids: exportedIds } : { zip: upstream, ids: upstreamIds };

beforeAll(async () => {
  ctx = await createTestContext();
  const orgId = await createOrg(ctx, 'Fuzz Import Org');
  await putPolicy(ctx, orgId, {
    max_tokens_per_scan: 50,
    max_tokens_per_request: 40,
    allowed_tools: ['claude-code'],
    blocked_tools: [],
    blocked_actions: ['shell'],
  });
  const entries = timeline(12, Date.UTC(2026, 10, 1, 10));
  const withViolations = await submitScan(ctx, {
    tool: 'cursor',
    action: 'edit',
    tokens: entries.reduce((total, entry) => total + entry.tokens, 0),
    timeline: entries,
    organization_id: orgId,
    token_breakdown: { input: 100, output: 20 },
  });
  const plain = await submitScan(ctx, { tool: 'claude-code', action: 'chat', tokens: 42 });
  exportedIds = [withViolations.id, plain.id];
  violationIds.push(...withViolations.violations.map((v) => v.id));
  const response = await ctx.request({
    method: 'POST',
    url: '/v1/evidence/exports',
    payload: { scan_ids: exportedIds },
  });
  expect(response.statusCode, response.body).toBe(200);
  exported = response.rawPayload;
  const own = Object.fromEntries(exportedIds.map((id) => [id, id]));
  for (const id of exportedIds) expected.set(id, await readBack(ctx, id, own));

  // The upstream package's scans as a store that took the pristine package holds them.
  upstream = upstreamPackage();
  upstreamIds = ['fuzz_up_a', 'fuzz_up_b'];
  for (const [zip, into] of [
    [upstream, expected],
    [upstreamPackage(false), withoutScanFile],
  ] as const) {
    const reference = await createTestContext();
    try {
      const imported = await reference.request({
        method: 'POST',
        url: '/v1/evidence/imports',
        headers: { 'content-type': 'application/zip' },
        payload: zip,
      });
      expect(imported.statusCode, imported.body).toBe(201);
      const { ids } = imported.json() as ImportResult;
      for (const id of upstreamIds) into.set(id, await readBack(reference, id, ids));
    } finally {
      await reference.close();
    }
  }
});

afterAll(async () => {
  await ctx?.close();
});

describe('fuzzing the evidence import', () => {
  it('the pristine packages pass the oracle (exported: unchanged; upstream: imported)', async () => {
    for (const name of PACKAGES)
      expect(await importAndCheck(packageOf(name).zip, packageOf(name).ids, name, 'exact')).toBe(201);
  });

  it('bit flips, byte overwrites and truncations', async () => {
    const mutation = fc.oneof(
      fc.record({ kind: fc.constant('flip' as const), at: fc.nat(), bit: fc.nat({ max: 7 }) }),
      fc.record({ kind: fc.constant('byte' as const), at: fc.nat(), byte: fc.nat({ max: 255 }) }),
      fc.record({ kind: fc.constant('truncate' as const), at: fc.nat() }),
      // Near the end: the end-of-central-directory record and the directory itself.
      fc.record({ kind: fc.constant('flipTail' as const), at: fc.nat({ max: 300 }), bit: fc.nat({ max: 7 }) }),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...PACKAGES),
        fc.array(mutation, { minLength: 1, maxLength: 4 }),
        async (name, mutations) => {
          const { zip, ids } = packageOf(name);
          let bytes = Buffer.from(zip);
          for (const m of mutations) {
            if (bytes.length === 0) break;
            if (m.kind === 'truncate') bytes = bytes.subarray(0, m.at % bytes.length);
            else if (m.kind === 'flip') bytes[m.at % bytes.length]! ^= 1 << m.bit;
            else if (m.kind === 'flipTail') bytes[Math.max(0, bytes.length - 1 - (m.at % bytes.length))]! ^= 1 << m.bit;
            else bytes[m.at % bytes.length] = m.byte;
          }
          await importAndCheck(bytes, ids, `${name} ${JSON.stringify(mutations)}`, oracleFor(name));
        },
      ),
      { seed, numRuns: RUNS.bytes, endOnFailure: true },
    );
  });

  it('sizes, CRCs, methods, flags and names that lie, in the local header, the central one, or both', async () => {
    const patch = fc.record({
      record: fc.nat(),
      where: fc.constantFrom('local' as const, 'central' as const, 'both' as const),
      field: fc.constantFrom<HeaderField>(
        'crc',
        'compressedSize',
        'uncompressedSize',
        'method',
        'flags',
        'name',
        'nameLength',
      ),
      value: fc.nat(),
      position: fc.nat(),
    });
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...PACKAGES),
        fc.array(patch, { minLength: 1, maxLength: 3 }),
        async (name, patches) => {
          const { zip, ids } = packageOf(name);
          const bytes = patches.reduce(patchHeader, zip);
          await importAndCheck(bytes, ids, `${name} ${JSON.stringify(patches)}`, oracleFor(name));
        },
      ),
      { seed: seed + 1, numRuns: RUNS.headers, endOnFailure: true },
    );
  });

  it('renamed, duplicated, dropped, extra and re-flagged entries', async () => {
    const bases = new Map<PackageName, ForgedEntry[]>();
    for (const name of PACKAGES) bases.set(name, await entriesOf(packageOf(name).zip));
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...PACKAGES),
        fc.array(entryMutation(), { minLength: 1, maxLength: 3 }),
        async (name, mutations) => {
          const bytes = applyEntryMutations(bases.get(name)!, mutations);
          const altered = name === 'upstream' && mutations.some((mutation) => mutation.kind === 'content');
          const label = `${name} ${JSON.stringify(mutations)}`;
          await importAndCheck(bytes, packageOf(name).ids, label, altered ? 'altered' : oracleFor(name));
        },
      ),
      { seed: seed + 2, numRuns: RUNS.entries, endOnFailure: true },
    );
  });

  it('a rebuilt but otherwise untouched package is still accepted (the oracle is not vacuous)', async () => {
    for (const name of PACKAGES) {
      const rebuilt = buildZip(await entriesOf(packageOf(name).zip));
      expect(await importAndCheck(rebuilt, packageOf(name).ids, `${name} rebuilt`, 'exact')).toBe(201);
    }
  });
});
