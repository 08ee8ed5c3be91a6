import { randomBytes } from 'node:crypto';
import { ZipFile } from 'yazl';
import { describe, expect, it } from 'vitest';
import { PackageProgress } from '../../../../../src/renderer/src/features/scans/package-progress';
import { MANIFEST_PATH, packagePaths } from '../../../../../src/shared/evidence-package';

/** A package laid out as the server writes one: per scan three entries, then the manifest. */
async function packageOf(scans: number): Promise<{ bytes: Buffer; manifestAt: number }> {
  const zip = new ZipFile();
  for (let i = 0; i < scans; i += 1) {
    const paths = packagePaths(`scan_${i}`);
    zip.addBuffer(Buffer.from(JSON.stringify({ id: `scan_${i}` })), paths.scan, { compress: true });
    zip.addBuffer(Buffer.from('{}'), paths.evidence, { compress: true });
    // Incompressible bytes: the compressed data is as likely as anything to hold "PK\3\4".
    zip.addBuffer(randomBytes(2000 + i * 500), paths.timeline, { compress: true });
  }
  zip.addBuffer(Buffer.from('{}'), MANIFEST_PATH, { compress: true });
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  const bytes = Buffer.concat(chunks);
  return { bytes, manifestAt: bytes.lastIndexOf(Buffer.from(`PK\x03\x04`, 'latin1')) };
}

function doneAfterEachChunk(bytes: Buffer, size: number): number[] {
  const progress = new PackageProgress();
  const seen: number[] = [];
  for (let at = 0; at < bytes.length; at += size) {
    progress.push(new Uint8Array(bytes.subarray(at, at + size)));
    seen.push(progress.done);
  }
  return seen;
}

describe('PackageProgress', () => {
  it('counts every scan of a whole package, however the bytes are cut', async () => {
    const { bytes } = await packageOf(7);
    for (const size of [1, 3, 29, 30, 31, 64, 1000, bytes.length]) {
      const seen = doneAfterEachChunk(bytes, size);
      expect(seen.at(-1), `chunks of ${size}`).toBe(7);
      expect(seen, `chunks of ${size}`).toEqual([...seen].sort((a, b) => a - b));
    }
  });

  it('rises one scan at a time as the next one begins', async () => {
    const { bytes } = await packageOf(5);
    expect([...new Set(doneAfterEachChunk(bytes, 1))]).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('does not count the last scan before the manifest has begun', async () => {
    const { bytes, manifestAt } = await packageOf(4);
    const progress = new PackageProgress();
    progress.push(new Uint8Array(bytes.subarray(0, manifestAt + 30)));
    expect(progress.done).toBe(3);
    progress.push(new Uint8Array(bytes.subarray(manifestAt + 30)));
    expect(progress.done).toBe(4);
  });

  it('counts nothing in bytes that only look like a header', () => {
    const progress = new PackageProgress();
    const fake = Buffer.alloc(64);
    fake.write('PK\x03\x04', 0, 'latin1');
    fake.writeUInt16LE(9, 26);
    fake.write('scan.json', 30, 'latin1');
    progress.push(new Uint8Array(fake));
    expect(progress.done).toBe(0);
  });
});
