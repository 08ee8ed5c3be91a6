import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { createDeflateRaw, deflateRawSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { derivedScanId, derivedViolationId } from '../../../../src/main/evidence/import/import-ids';
import type { Evidence } from '../../../../src/shared/api/evidence';
import type { Scan } from '../../../../src/shared/api/scans';
import type { Manifest } from '../../../../src/shared/evidence-package';
import { expectError, snapshotDatabase } from '../../../helpers/assertions';
import {
  expectImported,
  IMPORTS_URL,
  expectRefused,
  format1,
  json,
  MiB,
  postZip,
  sha256,
  timelineOf,
  upstreamEvidence,
} from '../../../helpers/import-fixtures';
import { createOrg, putPolicy, submitScan } from '../../../helpers/scan-fixtures';
import { createTestContext, type TestContext } from '../../../helpers/test-app';
import { buildZip, type ForgedEntry, unzip } from '../../../helpers/zip-builder';

/** Where `ctx`'s owner imports package scan `id` when it is not theirs (docs/security.md, Imported ids). */
const storedAs = (ctx: TestContext, id: string): string => derivedScanId(ctx.owner.id, id);

/** `packageIds` imported into `ctx` by its owner, who owns none of them: the ids they map to. */
const derivedIds = (ctx: TestContext, packageIds: string[]): Record<string, string> =>
  Object.fromEntries(packageIds.map((id) => [id, storedAs(ctx, id)]));

/** A scan or evidence of another user's scan as the importer's derived copy holds it. */
function asDerived<T extends { violations?: Scan['violations'] }>(ctx: TestContext, value: T): T {
  return value.violations
    ? { ...value, violations: value.violations.map((v) => ({ ...v, id: derivedViolationId(ctx.owner.id, v.id) })) }
    : value;
}

/** ~1.5 GiB of zeros, deflated as a stream: the archive is small, the inflation is not. */
async function deflatedZeros(bytes: number): Promise<Buffer> {
  const deflate = createDeflateRaw({ level: 9 });
  const chunks: Buffer[] = [];
  deflate.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise((resolve) => deflate.on('end', resolve));
  const zeros = Buffer.alloc(4 * MiB);
  for (let written = 0; written < bytes; written += zeros.length) {
    if (!deflate.write(zeros)) await new Promise((resolve) => deflate.once('drain', resolve));
  }
  deflate.end();
  await done;
  return Buffer.concat(chunks);
}

describe('evidence import', () => {
  let source: TestContext;
  let scanA: Scan;
  let scanB: Scan;
  let packageA: Buffer;
  let filesA: Map<string, Buffer>;
  const work = mkdtempSync(join(tmpdir(), 'scandesk-import-test-'));

  beforeAll(async () => {
    source = await createTestContext();
    const orgId = await createOrg(source, 'Acme');
    await putPolicy(source, orgId, {
      max_tokens_per_scan: 1000,
      max_tokens_per_request: 500,
      allowed_tools: null,
      blocked_tools: [],
      blocked_actions: ['shell'],
    });
    scanA = await submitScan(source, {
      tool: 'claude-code',
      action: 'refactor',
      tokens: 1600,
      organization_id: orgId,
      timeline: [
        { timestamp: '2026-11-01T10:00:00.000Z', action: 'shell', tokens: 900 },
        { timestamp: '2026-11-01T10:00:01.000Z', action: 'read', tokens: 600 },
        { timestamp: '2026-11-01T10:00:02.000Z', action: 'edit', tokens: 100 },
      ],
      token_breakdown: { input: 1200, output: 300, cached: 100 },
    });
    expect(scanA.violations.length).toBeGreaterThan(0);
    scanB = await submitScan(source, { tool: 'cursor', action: 'chat', tokens: 42 });
    const download = await source.request({ method: 'GET', url: `/v1/scans/${scanA.id}/evidence/download` });
    expect(download.statusCode).toBe(200);
    packageA = download.rawPayload;
    filesA = await unzip(packageA);
  });

  afterAll(async () => {
    await source.close();
    rmSync(work, { recursive: true, force: true });
  });

  async function fresh(options: Parameters<typeof createTestContext>[0] = {}): Promise<TestContext> {
    return createTestContext(options);
  }

  async function withContext(run: (ctx: TestContext) => Promise<void>, options = {}): Promise<void> {
    const ctx = await fresh(options);
    try {
      await run(ctx);
    } finally {
      await ctx.close();
    }
  }

  async function exported(ctx: TestContext, ids: string[]): Promise<Buffer> {
    const response = await ctx.request({ method: 'POST', url: '/v1/evidence/exports', payload: { scan_ids: ids } });
    expect(response.statusCode, response.body).toBe(200);
    return response.rawPayload;
  }

  async function scanAndEvidence(ctx: TestContext, id: string): Promise<{ scan: Scan; evidence: Evidence }> {
    const scan = await ctx.request({ method: 'GET', url: `/v1/scans/${id}` });
    const evidence = await ctx.request({ method: 'GET', url: `/v1/scans/${id}/evidence` });
    expect(scan.statusCode, scan.body).toBe(200);
    expect(evidence.statusCode, evidence.body).toBe(200);
    return { scan: scan.json() as Scan, evidence: evidence.json() as Evidence };
  }

  describe('success', () => {
    it('re-imports our own download as unchanged, changing nothing', async () => {
      const before = await snapshotDatabase(source.db);
      await expectImported(source, packageA, { unchanged: [scanA.id], ids: { [scanA.id]: scanA.id } });
      expect(await snapshotDatabase(source.db)).toEqual(before);
    });

    it("imports into a fresh store as the importer's, under derived scan and violation ids, source imported, no organization", async () => {
      const original = await scanAndEvidence(source, scanA.id);
      await withContext(async (ctx) => {
        const id = storedAs(ctx, scanA.id);
        await expectImported(ctx, packageA, { imported: [id], ids: { [scanA.id]: id } });
        const copy = await scanAndEvidence(ctx, id);
        expect(copy.scan).toEqual(
          asDerived(ctx, {
            ...original.scan,
            id,
            source: 'imported',
            organization_id: null,
            package_id: scanA.id,
            package_origin: expect.stringMatching(/^scandesk /) as string,
          }),
        );
        expect(copy.evidence).toEqual({
          scan_id: id,
          evidence: asDerived(ctx, original.evidence.evidence),
        });
        const list = await ctx.request({ method: 'GET', url: '/v1/scans' });
        expect(list.json()).toMatchObject({
          total: 1,
          scans: [{ id, violation_count: scanA.violations.length, worst_severity: 'high' }],
        });
        // Importing again: unchanged.
        await expectImported(ctx, packageA, { unchanged: [id], ids: { [scanA.id]: id } });
      });
    });

    it('round-trips: export → import into an empty store → export gives the same scans, evidence and manifest, under the ids each importer derived', async () => {
      const first = await exported(source, [scanA.id, scanB.id]);
      const b = await fresh();
      const c = await fresh();
      try {
        const inB = [scanA.id, scanB.id].map((id) => storedAs(b, id));
        await expectImported(b, first, { imported: inB, ids: derivedIds(b, [scanA.id, scanB.id]) });
        const second = await exported(b, inB);
        const inC = inB.map((id) => storedAs(c, id));
        await expectImported(c, second, { imported: inC, ids: derivedIds(c, inB) });
        const third = await exported(c, inC);

        // Every id of b and c renamed back to the first package's: then all must agree.
        const backFromB = new Map<string, string>();
        const backFromC = new Map<string, string>();
        for (const id of [scanA.id, scanB.id]) {
          backFromB.set(storedAs(b, id), id);
          backFromC.set(storedAs(c, storedAs(b, id)), id);
        }
        for (const { id } of scanA.violations) {
          const inStoreB = derivedViolationId(b.owner.id, id);
          backFromB.set(inStoreB, id);
          backFromC.set(derivedViolationId(c.owner.id, inStoreB), id);
        }
        const rename = (text: string, back: Map<string, string>): string =>
          [...back].reduce((renamed, [from, to]) => renamed.replaceAll(from, to), text);
        /** The package's entries with ids renamed back, the manifest's sums recomputed for them. */
        const canonical = async (zip: Buffer, back: Map<string, string>) => {
          const files = new Map<string, string>();
          for (const [name, data] of await unzip(zip)) files.set(rename(name, back), rename(data.toString(), back));
          const manifest = JSON.parse(files.get('manifest.json')!) as Manifest;
          files.delete('manifest.json');
          for (const file of manifest.files) {
            expect(Buffer.byteLength(files.get(file.path)!), file.path).toBe(file.bytes);
            file.sha256 = sha256(Buffer.from(files.get(file.path)!));
          }
          return { files, manifest: { ...manifest, exported_at: undefined } };
        };
        const [firstPackage, secondPackage, thirdPackage] = [
          await canonical(first, new Map()),
          await canonical(second, backFromB),
          await canonical(third, backFromC),
        ];
        expect(thirdPackage).toEqual(secondPackage);
        // The first export differs only in scan.json (source, organization): evidence is identical.
        const evidenceOnly = (pkg: typeof firstPackage) => ({
          files: [...pkg.files].filter(([path]) => !path.endsWith('scan.json')),
          manifest: pkg.manifest.files.filter((f) => !f.path.endsWith('scan.json')),
        });
        expect(evidenceOnly(secondPackage)).toEqual(evidenceOnly(firstPackage));
        for (const id of [scanA.id, scanB.id]) {
          const original = await scanAndEvidence(source, id);
          for (const [ctx, stored, back, packageId] of [
            [b, storedAs(b, id), backFromB, id],
            [c, storedAs(c, storedAs(b, id)), backFromC, storedAs(b, id)],
          ] as const) {
            const copy = JSON.parse(
              rename(JSON.stringify(await scanAndEvidence(ctx, stored)), back),
            ) as typeof original;
            // Each copy names the id it had in the package it came from: C's, B's id for it.
            expect(copy.scan).toEqual({
              ...original.scan,
              source: 'imported',
              organization_id: null,
              package_id: packageId,
              package_origin: expect.stringMatching(/^scandesk /) as string,
            });
            expect(copy.evidence).toEqual(original.evidence);
          }
        }
      } finally {
        await b.close();
        await c.close();
      }
    });

    it('imports the upstream shapes without a manifest, with and without a scan file, applying the defaults', async () => {
      const withScanTimeline = timelineOf(4);
      const bareTimeline = timelineOf(3, Date.UTC(2026, 9, 5, 8));
      const zip = buildZip([
        {
          name: 'download/evidence-one.json',
          data: json(
            upstreamEvidence('up_one', withScanTimeline, {
              token_breakdown: { input: 10 },
              violations: [
                { id: 'v_up_1', rule: 'tokens.request_limit', severity: 'low', message: 'big', timeline_index: 2 },
              ],
            }),
          ),
        },
        {
          name: 'download/scan-one.json',
          data: json({
            id: 'up_one',
            created_at: '2026-11-01T00:00:00Z',
            tool: 'copilot',
            tokens: 999,
            status: 'running',
            violations: [
              { id: 'v_up_1', rule: 'tokens.request_limit', severity: 'low', message: 'big', timeline_index: 2 },
            ],
          }),
        },
        { name: 'other/whatever.json', data: json(upstreamEvidence('up_two', bareTimeline)) },
        { name: 'README.txt', data: Buffer.from('not read') },
      ]);
      await withContext(async (ctx) => {
        const [idOne, idTwo] = [storedAs(ctx, 'up_one'), storedAs(ctx, 'up_two')];
        const ids = derivedIds(ctx, ['up_one', 'up_two']);
        await expectImported(ctx, zip, { imported: [idOne, idTwo], ids });
        const one = await scanAndEvidence(ctx, idOne);
        const violationId = derivedViolationId(ctx.owner.id, 'v_up_1');
        expect(one.scan).toEqual({
          id: idOne,
          created_at: '2026-11-01T00:00:00.000Z',
          tool: 'copilot',
          action: 'read',
          tokens: 999,
          status: 'running',
          violations: [
            { id: violationId, rule: 'tokens.request_limit', severity: 'low', message: 'big', timeline_index: 2 },
          ],
          violation_count: 1,
          violations_truncated: false,
          organization_id: null,
          source: 'imported',
          package_id: 'up_one',
        });
        expect(one.evidence.evidence).toEqual({
          request_count: 4,
          total_tokens: withScanTimeline.reduce((s, e) => s + e.tokens, 0),
          timeline: withScanTimeline,
          token_breakdown: { input: 10 },
          violations: one.scan.violations,
        });
        const two = await scanAndEvidence(ctx, idTwo);
        const total = bareTimeline.reduce((s, e) => s + e.tokens, 0);
        expect(two.scan).toEqual({
          id: idTwo,
          created_at: bareTimeline[0]!.timestamp,
          tool: 'unknown',
          action: 'read',
          tokens: total,
          status: 'completed',
          violations: [],
          violation_count: 0,
          violations_truncated: false,
          organization_id: null,
          source: 'imported',
          package_id: 'up_two',
        });
        expect(two.evidence.evidence).toMatchObject({ token_breakdown: {}, violations: [], request_count: 3 });
        await expectImported(ctx, zip, { unchanged: [idOne, idTwo], ids });
      });
    });

    it('reads packages written by Info-ZIP zip and by Python zipfile (stored, deflated, data descriptors, ZIP64)', async () => {
      const dir = join(work, 'tree');
      for (const [name, data] of filesA) {
        mkdirSync(dirname(join(dir, name)), { recursive: true });
        writeFileSync(join(dir, name), data);
      }
      const run = (command: string, args: string[], cwd = dir): Buffer => {
        const result = spawnSync(command, args, { cwd, maxBuffer: 64 * MiB });
        expect(result.status, `${command} ${args.join(' ')}: ${result.stderr?.toString()}`).toBe(0);
        return result.stdout;
      };
      const python = `
import os, sys, zipfile
src, mode = sys.argv[1], sys.argv[2]
target = sys.stdout.buffer if mode == 'stream' else sys.argv[3]
compression = zipfile.ZIP_STORED if mode == 'stored' else zipfile.ZIP_DEFLATED
with zipfile.ZipFile(target, 'w', compression=compression) as zf:
    for root, dirs, files in os.walk(src):
        dirs.sort()
        for name in sorted(files):
            path = os.path.join(root, name)
            arcname = os.path.relpath(path, src).replace(os.sep, '/')
            if mode == 'zip64':
                with zf.open(arcname, 'w', force_zip64=True) as out, open(path, 'rb') as data:
                    out.write(data.read())
            else:
                zf.write(path, arcname)
`;
      const archives: [string, Buffer][] = [];
      const zipFile = (name: string) => join(work, name);
      run('zip', ['-r', '-q', zipFile('infozip.zip'), '.']);
      archives.push(['zip -r', readFileSync(zipFile('infozip.zip'))]);
      run('zip', ['-r', '-q', '-D', zipFile('infozip-d.zip'), '.']);
      archives.push(['zip -r -D', readFileSync(zipFile('infozip-d.zip'))]);
      for (const mode of ['stored', 'deflated', 'zip64']) {
        run('python3', ['-c', python, dir, mode, zipFile(`${mode}.zip`)]);
        archives.push([`python ${mode}`, readFileSync(zipFile(`${mode}.zip`))]);
      }
      const streamed = run('python3', ['-c', python, dir, 'stream']);
      expect(streamed.readUInt16LE(6) & 0x8).toBe(0x8);
      archives.push(['python stream', streamed]);
      expect(archives[0]![1].includes(Buffer.from('scans/'))).toBe(true);

      await withContext(async (ctx) => {
        let first = true;
        const id = storedAs(ctx, scanA.id);
        for (const [label, zip] of archives) {
          const response = await postZip(ctx, zip);
          expect(response.statusCode, `${label}: ${response.body}`).toBe(201);
          expect(response.json(), label).toEqual(
            first
              ? { imported: [id], unchanged: [], ids: { [scanA.id]: id } }
              : { imported: [], unchanged: [id], ids: { [scanA.id]: id } },
          );
          first = false;
        }
      });
    });

    it('imports a 100,000-entry timeline', async () => {
      const id = 'scan_BIG';
      const n = 100_000;
      const lines: string[] = [];
      let total = 0;
      for (const entry of timelineOf(n)) {
        lines.push(JSON.stringify(entry));
        total += entry.tokens;
      }
      const files = new Map<string, Buffer>([
        [
          `scans/${id}/scan.json`,
          json({
            id,
            created_at: '2026-11-01T00:00:00.000Z',
            tool: 'bulk',
            action: 'read',
            tokens: total,
            status: 'completed',
            violations: [],
          }),
        ],
        [
          `scans/${id}/evidence.json`,
          json({
            scan_id: id,
            evidence: { request_count: n, total_tokens: total, token_breakdown: {}, violations: [] },
          }),
        ],
        [`scans/${id}/timeline.jsonl`, Buffer.from(`${lines.join('\n')}\n`)],
      ]);
      await withContext(async (ctx) => {
        const stored = storedAs(ctx, id);
        await expectImported(ctx, format1(files, [id]), { imported: [stored], ids: { [id]: stored } });
        const buckets = await ctx.request({
          method: 'GET',
          url: `/v1/scans/${stored}/evidence/timeline/buckets?n=1`,
        });
        expect(buckets.json()).toMatchObject({ buckets: [{ count: n, tokens: total }] });
        // Totals of a timeline this long come from its stored summary: the same numbers.
        const evidence = await ctx.request({ method: 'GET', url: `/v1/scans/${stored}/evidence?types=violations` });
        expect(evidence.json()).toMatchObject({ evidence: { request_count: n, total_tokens: total } });
        expect(
          await ctx.db.selectFrom('timeline_grids').select('scan_id').where('scan_id', '=', stored).execute(),
        ).toHaveLength(1);
      });
    });
  });

  describe('refusals', () => {
    let ctx: TestContext;
    let limited: TestContext;

    beforeAll(async () => {
      ctx = await fresh();
      limited = await fresh({ importLimits: { bodyBytes: 8 * MiB, entryBytes: 4 * MiB, totalBytes: 5 * MiB } });
      const id = storedAs(ctx, scanA.id);
      await expectImported(ctx, packageA, { imported: [id], ids: { [scanA.id]: id } });
    });
    afterAll(async () => {
      await ctx.close();
      await limited.close();
    });

    it('refuses what is not a ZIP, and a truncated ZIP, in plain words', async () => {
      // The whole message: no ZIP reader's text in brackets after it.
      const plainly = /^(not a ZIP archive, or only part of one \(a download or copy cut short\)) \1$/;
      await expectRefused(ctx, Buffer.from('this is not a zip file at all'), undefined, plainly);
      await expectRefused(ctx, packageA.subarray(0, packageA.length - 30), undefined, plainly);
      // Central directory intact, an entry's deflate data cut short: the entry is named.
      const data = json(upstreamEvidence('x', timelineOf(50)));
      const cut = buildZip([{ name: 'a.json', data, compressed: deflateRawSync(data).subarray(0, 40) }]);
      await expectRefused(ctx, cut, 'a.json', /cannot be read: unexpected end of file/);
    });

    it('refuses encrypted entries and symlinks', async () => {
      const evidence = json(upstreamEvidence('x', timelineOf(2)));
      await expectRefused(ctx, buildZip([{ name: 'e.json', data: evidence, flags: 0x1 }]), 'e.json', /encrypted/);
      await expectRefused(
        ctx,
        buildZip([
          { name: 'ok.json', data: evidence },
          {
            name: 'link.json',
            data: Buffer.from('/etc/passwd'),
            method: 0,
            externalAttributes: (0o120777 << 16) >>> 0,
          },
        ]),
        'link.json',
        /symbolic link/,
      );
    });

    it('refuses unsafe and duplicate names', async () => {
      const data = json(upstreamEvidence('x', timelineOf(2)));
      for (const [name, reason] of [
        ['../x.json', /"\.\."/],
        ['a/../../x.json', /"\.\."/],
        ['/abs.json', /absolute/],
        ['C:/abs.json', /absolute/],
        ['a\\b.json', /backslash/],
        ['a\0b.json', /NUL/],
      ] as const) {
        await expectRefused(ctx, buildZip([{ name, data }]), name, reason);
      }
      await expectRefused(
        ctx,
        buildZip([
          { name: 'x.json', data },
          { name: 'x.json', data },
        ]),
        'x.json',
        /twice/,
      );
    });

    it('refuses more than 10,000 entries', async () => {
      const entries: ForgedEntry[] = Array.from({ length: 10_001 }, (_, i) => ({
        name: `e/${i}.txt`,
        data: Buffer.from('x'),
        method: 0,
      }));
      await expectRefused(ctx, buildZip(entries), 'e/10000.txt', /at most 10000 entries/);
    });

    it('refuses a deflate bomb whose headers lie, on the bytes actually inflated', async () => {
      const bomb = await deflatedZeros(1.5 * 1024 * MiB);
      expect(bomb.length).toBeLessThan(4 * MiB);
      const zip = buildZip([
        // The headers claim 5 MiB: a ratio of about 3:1 by their word.
        { name: 'bomb.json', compressed: bomb, uncompressedSize: 5 * MiB, crc32: 0 },
      ]);
      const started = Date.now();
      await expectRefused(ctx, zip, 'bomb.json', /ratio over 200:1/);
      expect(Date.now() - started).toBeLessThan(5000);
      // Honest about its size: refused from the header, before any inflating.
      const honest = buildZip([{ name: 'bomb.json', compressed: bomb, uncompressedSize: 1.5 * 1024 * MiB, crc32: 0 }]);
      await expectRefused(ctx, honest, 'bomb.json', /over the limit/);
    }, 30_000);

    it('enforces the per-entry and whole-archive limits on inflated bytes, whatever the headers say', async () => {
      // Hex text compresses about 2:1, far from a bomb; only the sizes are wrong.
      const hex = (bytes: number) => Buffer.from(randomBytes(bytes / 2).toString('hex'));
      await expectRefused(
        limited,
        buildZip([{ name: 'big.json', data: hex(5 * MiB), uncompressedSize: 1024 }]),
        'big.json',
        /more than 4194304 bytes, the limit for one entry/,
      );
      const padded = Buffer.concat([
        Buffer.from(`{"scan_id":"pad","evidence":{"request_count":0,"total_tokens":0,"timeline":[]},"padding":"`),
        hex(3 * MiB),
        Buffer.from('"}'),
      ]);
      await expectRefused(
        limited,
        buildZip([
          { name: 'a.json', data: padded },
          { name: 'b.json', data: hex(3 * MiB), uncompressedSize: 1024 },
        ]),
        'b.json',
        /more than 5242880 bytes, the limit for the whole/,
      );
    });

    it('refuses a header that understates the size, and a bad CRC', async () => {
      const data = json(upstreamEvidence('x', timelineOf(2)));
      await expectRefused(ctx, buildZip([{ name: 'a.json', data, uncompressedSize: 10 }]), 'a.json', /header says 10/);
      await expectRefused(ctx, buildZip([{ name: 'a.json', data, crc32: 1234 }]), 'a.json', /CRC-32/);
    });

    it('refuses a manifest checksum or size that does not match, and files missing from or extra to it', async () => {
      const paths = { evidence: `scans/${scanA.id}/evidence.json`, timeline: `scans/${scanA.id}/timeline.jsonl` };
      await expectRefused(
        ctx,
        format1(filesA, [scanA.id], (m) => {
          m.files.find((f) => f.path === paths.evidence)!.sha256 = '0'.repeat(64);
        }),
        paths.evidence,
        /SHA-256 does not match/,
      );
      await expectRefused(
        ctx,
        format1(filesA, [scanA.id], (m) => {
          m.files.find((f) => f.path === paths.timeline)!.bytes += 1;
        }),
        paths.timeline,
        /does not match the manifest's/,
      );
      const extra = new Map(filesA).set('notes.txt', Buffer.from('hi'));
      await expectRefused(
        ctx,
        format1(extra, [scanA.id], (m) => {
          m.files = m.files.filter((f) => f.path !== 'notes.txt');
        }),
        'notes.txt',
        /not listed in the manifest/,
      );
      const missing = new Map(filesA);
      missing.delete(paths.timeline);
      await expectRefused(ctx, format1(missing, [scanA.id]), paths.timeline, /not/);
    });

    it('refuses JSON that does not fit the shapes, naming the entry and the field', async () => {
      const bad = upstreamEvidence('x', timelineOf(2)) as { evidence: Record<string, unknown> };
      bad.evidence.request_count = '2';
      await expectRefused(ctx, buildZip([{ name: 'e.json', data: json(bad) }]), 'e.json', /evidence\.request_count/);
      await expectRefused(ctx, buildZip([{ name: 'e.json', data: Buffer.from('{"scan_id": ') }]), 'e.json', /not JSON/);
      await expectRefused(ctx, buildZip([{ name: 'e.json', data: json([1, 2]) }]), 'e.json', /neither/);
      const counts = upstreamEvidence('x', timelineOf(3));
      counts.evidence.total_tokens += 1;
      await expectRefused(ctx, buildZip([{ name: 'e.json', data: json(counts) }]), 'e.json', /total_tokens/);
      const manifest = JSON.parse(filesA.get('manifest.json')!.toString()) as Record<string, unknown>;
      await expectRefused(
        ctx,
        buildZip(
          [...filesA].map(([name, data]) => ({
            name,
            data: name === 'manifest.json' ? json({ ...manifest, version: 2 }) : data,
          })),
        ),
        'manifest.json',
        /version/,
      );
    });

    it('names the timeline line that is not JSON or not a timeline entry', async () => {
      const path = `scans/${scanA.id}/timeline.jsonl`;
      const lines = filesA.get(path)!.toString().trimEnd().split('\n');
      const withLine = (index: number, text: string) =>
        format1(
          new Map(filesA).set(path, Buffer.from(`${lines.map((l, i) => (i === index ? text : l)).join('\n')}\n`)),
          [scanA.id],
        );
      const before = await snapshotDatabase(ctx.db);
      let error = expectError(await postZip(ctx, withLine(1, 'not json')), 400, 'invalid_package');
      expect(error.details[0]).toMatchObject({ entry: path, message: expect.stringMatching(/^line 2: not JSON/) });
      const negative = JSON.stringify({ ...JSON.parse(lines[2]!), tokens: -1 });
      error = expectError(await postZip(ctx, withLine(2, negative)), 400, 'invalid_package');
      expect(error.details[0]).toEqual({ entry: path, message: 'line 3: tokens must be an integer >= 0' });
      expect(error.message).toBe(`${path} line 3: tokens must be an integer >= 0`);
      expect(await snapshotDatabase(ctx.db)).toEqual(before);
    });

    it('answers 409 when a scan id exists with other content, naming the scan, and stores nothing', async () => {
      const timeline = [
        { timestamp: '2026-11-01T10:00:00.000Z', action: 'shell', tokens: 900 },
        { timestamp: '2026-11-01T10:00:01.000Z', action: 'read', tokens: 600 },
        { timestamp: '2026-11-01T10:00:02.000Z', action: 'edit', tokens: 101 },
      ];
      const zip = buildZip([
        // A new scan first: it must not survive the conflict that follows.
        { name: 'new.json', data: json(upstreamEvidence('brand_new', timelineOf(2))) },
        { name: 'clash.json', data: json(upstreamEvidence(scanA.id, timeline)) },
      ]);
      const before = await snapshotDatabase(ctx.db);
      const error = expectError(await postZip(ctx, zip), 409, 'conflict');
      expect(error.message).toContain(scanA.id);
      expect(error.details[0]).toMatchObject({ entry: 'clash.json', message: expect.stringContaining(scanA.id) });
      expect(await snapshotDatabase(ctx.db)).toEqual(before);

      // A violation whose stored id is taken (here by the importer's own copy of scan A) is a
      // conflict too, named by the package's ids, never by the scan that holds it.
      const stolen = upstreamEvidence('thief', timelineOf(1), {
        violations: [{ ...scanA.violations[0]!, timeline_index: 0 }],
      });
      const conflict = expectError(
        await postZip(ctx, buildZip([{ name: 't.json', data: json(stolen) }])),
        409,
        'conflict',
      );
      expect(conflict.message).toBe(
        `violation ${scanA.violations[0]!.id} of scan thief: the id it would be stored under is in use`,
      );
      expect(JSON.stringify(conflict)).not.toContain(storedAs(ctx, scanA.id));
      expect(await snapshotDatabase(ctx.db)).toEqual(before);
    });

    it('answers 415 for any other Content-Type and 413 past the body limit', async () => {
      const before = await snapshotDatabase(ctx.db);
      expectError(await postZip(ctx, packageA, 'application/octet-stream'), 415, 'unsupported_media_type');
      expectError(
        await ctx.request({ method: 'POST', url: IMPORTS_URL, payload: { scan_ids: [scanA.id] } }),
        415,
        'unsupported_media_type',
      );
      expectError(await ctx.request({ method: 'POST', url: IMPORTS_URL }), 415, 'unsupported_media_type');
      const tooBig = expectError(await postZip(limited, Buffer.alloc(9 * MiB)), 413, 'payload_too_large');
      expect(tooBig.details[0]!.message).toContain(String(8 * MiB));
      // Without a Content-Length the bytes are counted as they are spooled.
      const streamed = await limited.request({
        method: 'POST',
        url: IMPORTS_URL,
        headers: { 'content-type': 'application/zip' },
        payload: Readable.from(Array.from({ length: 9 }, () => Buffer.alloc(MiB))),
      });
      expectError(streamed, 413, 'payload_too_large');
      expect(await snapshotDatabase(ctx.db)).toEqual(before);
    });
  });
});
