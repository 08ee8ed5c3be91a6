import { createHash } from 'node:crypto';
import { type Duplex, Readable, Transform, type TransformCallback } from 'node:stream';
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
import { findViolationsOf } from '../../scans/scans.repository';
import { VERSION } from '../../version';
import { timelineExportChunks } from '../timeline/timeline-reads.repository';
import { timelineInfos, timelinesTupleChunks } from '../timeline/timeline-batch-reads.repository';
import { TIMELINE_CHUNK, type TimelineTuple } from '../timeline/timeline-entry';
import { TimelineJsonlEncoder } from '../jsonl/timeline-encoder';

/** Counts and hashes the bytes that pass through, for the manifest. */
class Digest extends Transform {
  private readonly hash = createHash('sha256');
  private bytes = 0;

  constructor(
    private readonly path: string,
    private readonly done: (file: ManifestFile) => void,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.hash.update(chunk);
    this.bytes += chunk.length;
    callback(null, chunk);
  }

  override _flush(callback: TransformCallback): void {
    this.done({ path: this.path, bytes: this.bytes, sha256: this.hash.digest('hex') });
    callback();
  }
}

function timelineJsonl(db: Db, timeline: { scanId: string; timelineId: number }): Readable {
  const encoder = new TimelineJsonlEncoder();
  return Readable.from(
    (async function* () {
      for await (const rows of timelineExportChunks(db, timeline)) yield encoder.encode(rows);
    })(),
    { objectMode: false },
  );
}

/** Scans read together: one statement per kind for the whole group. */
const GROUP_SCANS = 100;
/**
 * A timeline of at most this many entries (about 70 bytes each) is read with its group's and
 * written as one buffer; a longer one is streamed a chunk at a time. So a group holds at most
 * GROUP_SCANS × SMALL_TIMELINE entries in memory.
 */
const SMALL_TIMELINE = 500;

const json = (value: unknown): Buffer => Buffer.from(JSON.stringify(value, null, 2), 'utf8');
const sha256 = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');

/**
 * Writes an evidence package (format 1) for the given scans as a ZIP stream. Scans are read a
 * group at a time (a statement per kind for the group, not per scan) and a group is read only
 * once the reader has taken the previous one, so memory stays bounded whatever the package. A
 * short timeline is written as one buffer (deflated at once, the cheap path for the many small
 * entries of a sync page); a long one is read from the store a chunk at a time as the reader
 * consumes it, so memory stays flat whatever its length. The manifest comes last: only then are
 * the sizes and SHA-256 sums of the other entries known; they are listed in entry order.
 */
export function writeEvidencePackage(db: Db, scans: readonly ScanRow[]): Readable {
  const zip = new ZipFile();
  const files: ManifestFile[] = [];
  const mtime = new Date();
  // yazl's output is a PassThrough it writes into without waiting: its writable side tells when
  // the reader is behind.
  const output = zip.outputStream as Duplex;
  // A failing entry (the store went away mid-export) ends the download instead of the process.
  zip.on('error', (error: Error) => output.destroy(error));
  const options = { mtime, compress: true };
  const encoder = new TimelineJsonlEncoder();

  const addBuffer = (path: string, bytes: Buffer): void => {
    files.push({ path, bytes: bytes.length, sha256: sha256(bytes) });
    zip.addBuffer(bytes, path, options);
  };
  /** A long timeline, streamed; resolves once its last byte has gone into the ZIP. */
  const addStream = (path: string, open: () => Readable): Promise<void> => {
    const slot = files.push({ path, bytes: 0, sha256: '' }) - 1;
    return new Promise((resolve, reject) => {
      // A reader gone away stops the entry half-way: nothing is left to wait for.
      output.once('close', resolve);
      zip.addReadStreamLazy(path, options, (callback) => {
        const stream = open();
        const digest = new Digest(path, (file) => {
          files[slot] = file;
          resolve();
        });
        // pipe() passes data on, not errors, and yazl listens to none on an entry's stream:
        // unforwarded, a timeline read failing mid-way would be an uncaught error.
        stream.on('error', (error: Error) => {
          reject(error);
          zip.emit('error', error);
        });
        callback(null, stream.pipe(digest));
      });
    });
  };
  /** Until the reader has taken what is queued (or has gone away). */
  const drained = (): Promise<void> =>
    output.destroyed || !output.writableNeedDrain
      ? Promise.resolve()
      : new Promise((resolve) => {
          const done = (): void => {
            output.off('drain', done);
            output.off('close', done);
            resolve();
          };
          output.on('drain', done);
          output.on('close', done);
        });

  const writeGroup = async (group: readonly ScanRow[]): Promise<void> => {
    const ids = group.map((scan) => scan.id);
    const [violations, timelines] = await Promise.all([findViolationsOf(db, ids), timelineInfos(db, ids)]);
    const short = [...timelines.values()].filter(
      (info) => info.timelineId !== undefined && !info.summarised && info.count <= SMALL_TIMELINE,
    );
    const tuples = new Map<number, TimelineTuple[]>(short.map((info) => [info.timelineId!, []]));
    for await (const rows of timelinesTupleChunks(
      db,
      short.map((info) => info.timelineId!),
      TIMELINE_CHUNK,
    )) {
      for (const row of rows) tuples.get(row.timelineId)!.push(row.tuple);
    }
    if (output.destroyed) return;
    let streamed: Promise<void> | undefined;
    for (const scan of group) {
      const paths = packagePaths(scan.id);
      const scanViolations = violations.get(scan.id)!;
      const timeline = timelines.get(scan.id)!;
      addBuffer(paths.scan, json(toScan(scan, scanViolations)));
      const evidence: Evidence = {
        scan_id: scan.id,
        evidence: {
          request_count: timeline.count,
          total_tokens: timeline.tokens,
          token_breakdown: JSON.parse(scan.token_breakdown) as TokenBreakdown,
          violations: scanViolations.map(toViolation),
        },
      };
      addBuffer(paths.evidence, json(evidence));
      const { timelineId } = timeline;
      const rows = timelineId === undefined ? [] : tuples.get(timelineId);
      if (rows) addBuffer(paths.timeline, rows.length === 0 ? Buffer.alloc(0) : encoder.encode(rows));
      else if (timelineId !== undefined) {
        streamed = addStream(paths.timeline, () => timelineJsonl(db, { scanId: scan.id, timelineId }));
      }
    }
    // What follows a long timeline waits in the ZIP's queue until it has been written out.
    if (streamed) await streamed;
  };

  const produce = async (): Promise<void> => {
    for (let at = 0; at < scans.length; at += GROUP_SCANS) {
      await drained();
      if (output.destroyed) return;
      await writeGroup(scans.slice(at, at + GROUP_SCANS));
    }
    const manifest: Manifest = {
      format: PACKAGE_FORMAT,
      version: PACKAGE_VERSION,
      exported_at: mtime.toISOString(),
      generator: `scandesk ${VERSION}`,
      scans: scans.map((scan) => scan.id),
      files,
    };
    zip.addBuffer(json(manifest), MANIFEST_PATH, options);
    zip.end();
  };
  produce().catch((error: unknown) => output.destroy(error instanceof Error ? error : new Error(String(error))));
  return output;
}
