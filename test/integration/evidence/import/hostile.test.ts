import { crc32 } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH } from '../../../../src/shared/json-depth';
import { expectRefused, json, postZip, timelineOf, upstreamEvidence } from '../../../helpers/import-fixtures';
import { createTestContext, type TestContext } from '../../../helpers/test-app';
import { buildZip, type ForgedEntry } from '../../../helpers/zip-builder';

// Archives built to mean one thing to us and another to some other unzipper, or to cost far more
// to read than they weigh (ZIP differentials, bombs, deep JSON). Every one is
// refused with invalid_package and leaves the store as it was; each was imported, or read at full
// cost, before the checks in zip-records.ts, json-depth.ts and the archive-wide ratio.

const evidence = (id: string, length = 3): Buffer => json(upstreamEvidence(id, timelineOf(length)));

/** An Info-ZIP Unicode-path extra field (0x7075) naming `name` for a header named `headerName`. */
function unicodePath(name: string, headerName: string): Buffer {
  const data = Buffer.concat([Buffer.from([1]), Buffer.alloc(4), Buffer.from(name, 'utf8')]);
  data.writeUInt32LE(crc32(Buffer.from(headerName, 'utf8')), 1);
  const head = Buffer.alloc(4);
  head.writeUInt16LE(0x7075, 0);
  head.writeUInt16LE(data.length, 2);
  return Buffer.concat([head, data]);
}

/** The bytes of one entry's local record, as buildZip writes it first in an archive. */
function localRecord(entry: ForgedEntry): Buffer {
  const zip = buildZip([entry]);
  return zip.subarray(0, zip.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02])));
}

describe('hostile evidence archives', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(() => ctx.close());

  it('imports the plain package these are built from', async () => {
    const response = await postZip(ctx, buildZip([{ name: 'evidence.json', data: evidence('scan_plain') }]));
    expect(response.statusCode, response.body).toBe(201);
  });

  it('refuses 64 central entries sharing one local record (one stream inflated 64 times)', async () => {
    const data = evidence('scan_shared', 2000);
    const zip = buildZip(
      Array.from({ length: 64 }, (_, i) => ({
        name: `e${i}.json`,
        data,
        ...(i > 0 ? { localOffset: 0 } : {}),
      })),
    );
    expect(zip.length).toBeLessThan(data.length);
    await expectRefused(ctx, zip, 'e1.json', /local header names another file/);
  });

  it('refuses a record hidden inside the data of another', async () => {
    const inner: ForgedEntry = { name: 'b.json', method: 0, data: evidence('scan_inner') };
    const pad = Buffer.alloc(100, 0x20);
    const outer: ForgedEntry = { name: 'a.bin', method: 0, data: Buffer.concat([pad, localRecord(inner)]) };
    const zip = buildZip([outer, { ...inner, localOffset: 30 + outer.name.length + pad.length }]);
    await expectRefused(ctx, zip, 'b.json', /its record overlaps the record of a\.bin/);
  });

  it('refuses a local header that names another file than the central directory', async () => {
    const zip = buildZip([{ name: 'evidence.json', localName: 'evidenc2.json', data: evidence('scan_local') }]);
    await expectRefused(ctx, zip, 'evidence.json', /local header names another file/);
  });

  it('refuses a Unicode-path extra field that names another path, in either header', async () => {
    const data = evidence('scan_unicode');
    const extra = unicodePath('../evil.json', 'evidence.json');
    await expectRefused(
      ctx,
      buildZip([{ name: 'evidence.json', data, extra }]),
      'evidence.json',
      /Unicode-path extra field names another file/,
    );
    const harmless = unicodePath('other.json', 'evidence.json');
    await expectRefused(
      ctx,
      buildZip([{ name: 'evidence.json', data, extra: harmless }]),
      'evidence.json',
      /Unicode-path extra field names another file/,
    );
  });

  it('accepts a Unicode-path extra field that repeats the name', async () => {
    const extra = unicodePath('évidence.json', 'évidence.json');
    const response = await postZip(ctx, buildZip([{ name: 'évidence.json', data: evidence('scan_same'), extra }]));
    expect(response.statusCode, response.body).toBe(201);
  });

  it('refuses a directory entry that carries data', async () => {
    const zip = buildZip([
      { name: 'docs/', data: Buffer.from('hidden in a directory') },
      { name: 'evidence.json', data: evidence('scan_dir') },
    ]);
    await expectRefused(ctx, zip, 'docs/', /a directory carries data/);
  });

  it('refuses ZIP64 sizes beyond the archive, on the entries it would skip too', async () => {
    for (const name of ['evidence.json', '__MACOSX/._evidence.json', 'more/']) {
      const lying: ForgedEntry = { name, zip64: true, compressedSize: 2 ** 40 };
      const zip = buildZip(
        name === 'evidence.json'
          ? [{ ...lying, data: evidence('scan_zip64') }]
          : [{ name: 'evidence.json', data: evidence('scan_zip64') }, lying],
      );
      await expectRefused(ctx, zip, name, /overflows file bounds/);
    }
  });

  it('bounds the whole archive by the ratio, where each entry stays under the per-entry floor', async () => {
    // 40 evidence files, each 900 KB of spaces around a small document: 36 MB from ~40 KB.
    const entries = Array.from({ length: 40 }, (_, i) => ({
      name: `scan-${i}.json`,
      data: Buffer.concat([Buffer.alloc(900 * 1024, 0x20), evidence(`scan_ratio_${i}`)]),
    }));
    const zip = buildZip(entries);
    expect(zip.length * 200).toBeLessThan(36 * 1024 * 1024);
    await expectRefused(ctx, zip, /^scan-\d+\.json$/, /times its size/);
  });

  it('refuses a JSON document nested past the limit after reading its first bytes', async () => {
    const deep = Buffer.alloc(4 * 1024 * 1024, '[');
    await expectRefused(
      ctx,
      buildZip([{ name: 'manifest.json', method: 0, data: deep }]),
      'manifest.json',
      new RegExp(`nested more than ${MAX_JSON_DEPTH} levels deep`),
    );
    const barelyTooDeep = Buffer.from(
      `{"scan_id":"scan_deep","evidence":${'['.repeat(MAX_JSON_DEPTH)}${']'.repeat(MAX_JSON_DEPTH)}}`,
    );
    await expectRefused(ctx, buildZip([{ name: 'e.json', data: barelyTooDeep }]), 'e.json', /nested more than/);
  });

  it("reads each JSON document once, and bounds the package's JSON documents in all", async () => {
    const limit = 1024;
    const small = await createTestContext({ importLimits: { jsonBytes: limit } });
    try {
      const one = (i: number): ForgedEntry & { data: Buffer } => ({
        name: `e${i}.json`,
        data: evidence(`scan_json_${i}`, 5),
      });
      // Over half the limit: a document read twice (to classify it, then to import it) would cross it.
      expect(one(0).data.length).toBeGreaterThan(limit / 2);
      expect(one(0).data.length).toBeLessThan(limit);
      const response = await postZip(small, buildZip([one(0)]));
      expect(response.statusCode, response.body).toBe(201);
      await expectRefused(small, buildZip([one(1), one(2)]), 'e2.json', new RegExp(`${limit} bytes in all`));
    } finally {
      await small.close();
    }
  });
});
