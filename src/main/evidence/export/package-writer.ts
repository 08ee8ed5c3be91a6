import { createHash } from 'node:crypto';
import { Readable, Transform, type TransformCallback } from 'node:stream';
import { ZipFile } from 'yazl';
import type { Evidence } from '../../../shared/api/evidence';
import type { TokenBreakdown } from '../../../shared/api/scans';
import {
  MANIFEST_PATH,
  PACKAGE_FORMAT,
  PACKAGE_VERSION,
  packagePaths,
  type Manifest,
  type ManifestFile,
} from '../../../shared/evidence-package';
import type { Db, ScanRow } from '../../db/index';
import { toScan, toViolation } from '../../scans/scan-mapping';
import { findViolations } from '../../scans/scans.repository';
import { VERSION } from '../../version';
import { timelineTotals, timelineTupleChunks } from '../timeline/timeline-reads.repository';
import { TimelineJsonlEncoder } from '../jsonl/timeline-encoder';

/** Counts and hashes the bytes that pass through, for the manifest. */
class Digest extends Transform {
  private readonly hash = createHash('sha256');
  private bytes = 0;

  constructor(
    private readonly path: string,
    private readonly files: ManifestFile[],
  ) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.hash.update(chunk);
    this.bytes += chunk.length;
    callback(null, chunk);
  }

  override _flush(callback: TransformCallback): void {
    this.files.push({ path: this.path, bytes: this.bytes, sha256: this.hash.digest('hex') });
    callback();
  }
}

function timelineJsonl(db: Db, scanId: string): Readable {
  const encoder = new TimelineJsonlEncoder();
  return Readable.from(
    (async function* () {
      for await (const rows of timelineTupleChunks(db, scanId)) yield encoder.encode(rows);
    })(),
  );
}

async function evidenceJson(db: Db, scan: ScanRow): Promise<Buffer> {
  const totals = await timelineTotals(db, scan.id);
  const evidence: Evidence = {
    scan_id: scan.id,
    evidence: {
      request_count: totals.count,
      total_tokens: totals.tokens,
      token_breakdown: JSON.parse(scan.token_breakdown) as TokenBreakdown,
      violations: (await findViolations(db, scan.id)).map(toViolation),
    },
  };
  return Buffer.from(JSON.stringify(evidence, null, 2), 'utf8');
}

/**
 * Writes an evidence package (format 1) for the given scans as a ZIP stream. Entries are produced
 * lazily, in order, as the reader consumes them; the timeline is read from the store a chunk at a
 * time, so memory stays flat whatever its length. The manifest comes last: only then are the
 * sizes and SHA-256 sums of the other entries known.
 */
export function writeEvidencePackage(db: Db, scans: readonly ScanRow[]): Readable {
  const zip = new ZipFile();
  const files: ManifestFile[] = [];
  const mtime = new Date();
  const add = (path: string, open: () => Promise<Readable>): void =>
    zip.addReadStreamLazy(path, { mtime, compress: true }, (callback) => {
      open().then(
        (stream) => {
          // pipe() passes data on, not errors, and yazl listens to none on an entry's stream:
          // unforwarded, a timeline read failing mid-way would be an uncaught error.
          stream.on('error', (error: Error) => zip.emit('error', error));
          callback(null, stream.pipe(new Digest(path, files)));
        },
        (error: unknown) => callback(error, Readable.from([])),
      );
    });

  for (const scan of scans) {
    const paths = packagePaths(scan.id);
    add(paths.scan, async () =>
      Readable.from([Buffer.from(JSON.stringify(toScan(scan, await findViolations(db, scan.id)), null, 2))]),
    );
    add(paths.evidence, async () => Readable.from([await evidenceJson(db, scan)]));
    add(paths.timeline, async () => timelineJsonl(db, scan.id));
  }
  zip.addReadStreamLazy(MANIFEST_PATH, { mtime, compress: true }, (callback) => {
    const manifest: Manifest = {
      format: PACKAGE_FORMAT,
      version: PACKAGE_VERSION,
      exported_at: mtime.toISOString(),
      generator: `scandesk ${VERSION}`,
      scans: scans.map((scan) => scan.id),
      files,
    };
    callback(null, Readable.from([Buffer.from(JSON.stringify(manifest, null, 2))]));
  });
  zip.end();
  const output = zip.outputStream as Readable;
  // A failing entry (the store went away mid-export) ends the download instead of the process.
  zip.on('error', (error: Error) => output.destroy(error));
  return output;
}
