/**
 * The export of a sync page (docs/contract/package-format.md#export): many small scans, read a
 * group at a time, with long timelines among them streamed a chunk at a time. The package holds
 * the same entries, in the same order, with the same document bytes as the writer that read and
 * streamed each scan on its own (the golden manifest below was captured from it, on main at
 * 5e28369, and lists every entry's size and SHA-256); and a store going away mid-export still
 * fails the stream, not the process.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScanRow } from '../../../../src/main/db/index';
import { writeEvidencePackage } from '../../../../src/main/evidence/export/package-writer';
import { MANIFEST_PATH, type Manifest } from '../../../../src/shared/evidence-package';
import { insertEvidenceScan, type StoredViolationSpec } from '../../../helpers/evidence-fixtures';
import { createTestContext, type TestContext } from '../../../helpers/test-app';
import { unzip } from '../../../helpers/zip-builder';

const GOLDEN = new URL('../../../fixtures/evidence/small-scans-package.manifest-golden.json', import.meta.url);
/** A fixed user, so that the documents do not depend on the store's random owner id. */
const USER = 'usr_golden';
const SMALL = 230;

/** The scans, in the (unsorted) order the package is asked for: small ones around two long ones. */
function scanIds(): string[] {
  const ids = Array.from({ length: SMALL }, (_, i) => `scan_S${String((i * 37) % SMALL).padStart(3, '0')}`);
  ids.splice(70, 0, 'scan_LONG');
  ids.splice(150, 0, 'scan_MID');
  return ids;
}

const violationsOf = (scan: string, count: number, entries: number): StoredViolationSpec[] =>
  Array.from({ length: count }, (_, i) => ({
    id: `vio_${scan}_${i}`,
    rule: i % 2 === 0 ? 'action.blocked' : 'tokens.request_limit',
    severity: (['low', 'medium', 'high', 'critical'] as const)[i % 4]!,
    message: `finding ${i} "quoted" é`,
    timeline_index: entries > 0 && i % 3 !== 0 ? (i * 7) % entries : null,
  }));

async function seed(ctx: TestContext): Promise<void> {
  await ctx.db
    .insertInto('users')
    .values({ id: USER, name: 'golden', is_workspace_owner: 0, created_at: '2026-11-01T00:00:00.000Z' })
    .execute();
  for (let i = 0; i < SMALL; i++) {
    const id = `scan_S${String(i).padStart(3, '0')}`;
    const entries = i % 13; // 0 (no timeline at all) to 12
    await insertEvidenceScan(ctx.db, {
      id,
      submittedBy: USER,
      entries,
      entryAt: (seq) => ({
        timestamp: Date.UTC(2026, 10, 1) + i * 3_600_000 + seq * 1_001,
        action: ['read', 'edit', 'say "hi"', 'emoji 😀'][(i + seq) % 4]!,
        tokens: (i * 31 + seq * 7) % 1000,
      }),
      tokenBreakdown: i % 4 === 0 ? '{}' : `{"input":${i},"output":${i * 2}}`,
      violations: violationsOf(id, i % 5, entries),
    });
  }
  // Longer than a group holds in memory: streamed, the first over several timeline chunks.
  for (const [id, entries] of [
    ['scan_LONG', 12_345],
    ['scan_MID', 777],
  ] as const) {
    await insertEvidenceScan(ctx.db, {
      id,
      submittedBy: USER,
      entries,
      entryAt: (seq) => ({
        timestamp: Date.UTC(2026, 9, 1) + seq * 997,
        action: `action ${seq % 5}`,
        tokens: seq % 11,
      }),
      tokenBreakdown: '{"input":5,"output":7}',
      violations: violationsOf(id, 12, entries),
    });
  }
}

async function rows(ctx: TestContext, ids: readonly string[]): Promise<ScanRow[]> {
  const found = await ctx.db.selectFrom('scans').selectAll().where('id', 'in', ids).execute();
  return ids.map((id) => found.find((row) => row.id === id)!);
}

async function exported(ctx: TestContext, scans: readonly ScanRow[]): Promise<Buffer> {
  const chunks: Buffer[] = [];
  await pipeline(
    writeEvidencePackage(ctx.db, scans),
    new Writable({
      write(chunk: Buffer, _encoding, callback) {
        chunks.push(chunk);
        callback();
      },
    }),
  );
  return Buffer.concat(chunks);
}

describe('an export of many small scans and long timelines', () => {
  let ctx: TestContext;

  beforeAll(async () => {
    ctx = await createTestContext();
    await seed(ctx);
  });
  afterAll(() => ctx.close());

  it('writes the entries, manifest, checksums and documents the per-scan writer wrote', async () => {
    const ids = scanIds();
    const files = await unzip(await exported(ctx, await rows(ctx, ids)));
    const manifest = JSON.parse(files.get(MANIFEST_PATH)!.toString('utf8')) as Manifest;
    expect([...files.keys()]).toEqual([...manifest.files.map((file) => file.path), MANIFEST_PATH]);
    for (const file of manifest.files) {
      const bytes = files.get(file.path)!;
      expect({
        path: file.path,
        bytes: bytes.length,
        sha256: createHash('sha256').update(bytes).digest('hex'),
      }).toEqual(file);
    }
    expect(manifest.scans).toEqual(ids);
    const { exported_at: _at, generator: _by, ...rest } = manifest;
    expect(rest).toEqual(JSON.parse(readFileSync(GOLDEN, 'utf8')));
  });

  it('fails the stream, not the process, when the store goes away while groups are being read', async () => {
    const other = await createTestContext();
    try {
      await seed(other);
      const scans = await rows(other, scanIds());
      let writes = 0;
      const sink = new Writable({
        write(_chunk, _encoding, callback) {
          // The first group is out: the store closes before the next one (or the long timeline) is read.
          if (++writes === 2) void other.workspace.close();
          callback();
        },
      });
      await expect(pipeline(writeEvidencePackage(other.db, scans), sink)).rejects.toThrow(/destroyed|not open/);
    } finally {
      await other.close().catch(() => undefined);
    }
  });
});
