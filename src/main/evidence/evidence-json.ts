import { Readable } from 'node:stream';
import type { EvidenceType } from '../../shared/api/evidence';
import type { TokenBreakdown, Violation } from '../../shared/api/scans';
import type { Db } from '../db/index';
import { toViolation } from '../scans/scan-mapping';
import { timelineTupleChunks } from './timeline/timeline-reads.repository';
import { TimelineJsonlEncoder } from './jsonl/timeline-encoder';

/**
 * The route's own serializers for the parts that are not the timeline, so that those bytes are
 * exactly what the framework wrote for the whole document (it drops breakdown keys its schema
 * does not match, for one).
 */
export interface EvidenceSerializers {
  tokenBreakdown: (value: TokenBreakdown) => string;
  violation: (value: Violation) => string;
}

export interface EvidenceHead {
  scanId: string;
  requestCount: number;
  totalTokens: number;
  /** The scan's token_breakdown column (JSON text). */
  tokenBreakdown: string;
  types: ReadonlySet<EvidenceType>;
}

const VIOLATION_CHUNK = 1000;
const NEWLINE = 0x0a;
const COMMA = 0x2c;
const COMMA_BYTES = Buffer.from(',');

/**
 * timeline.jsonl lines are the timeline entries' JSON, each ending in the only raw newline it
 * holds (JSON escapes those inside strings; UTF-8 never makes the byte otherwise): turning the
 * newlines into commas makes them array elements. The last comma is dropped.
 */
function asArrayElements(lines: Buffer): Buffer {
  for (let at = lines.indexOf(NEWLINE); at !== -1; at = lines.indexOf(NEWLINE, at + 1)) lines[at] = COMMA;
  return lines.subarray(0, lines.length - 1);
}

async function* violationChunks(db: Db, scanId: string): AsyncGenerator<Violation[]> {
  let after = -1;
  for (;;) {
    const rows = await db
      .selectFrom('violations')
      .selectAll()
      .where('scan_id', '=', scanId)
      .where('seq', '>', after)
      .orderBy('seq')
      .limit(VIOLATION_CHUNK)
      .execute();
    if (rows.length > 0) yield rows.map(toViolation);
    if (rows.length < VIOLATION_CHUNK) return;
    after = rows[rows.length - 1]!.seq;
  }
}

async function* evidenceBytes(db: Db, head: EvidenceHead, serialize: EvidenceSerializers): AsyncGenerator<Buffer> {
  const { types } = head;
  yield Buffer.from(
    `{"scan_id":${JSON.stringify(head.scanId)},"evidence":{"request_count":${head.requestCount},"total_tokens":${head.totalTokens}`,
  );
  if (types.has('timeline')) {
    yield Buffer.from(',"timeline":[');
    const encoder = new TimelineJsonlEncoder();
    let first = true;
    for await (const rows of timelineTupleChunks(db, head.scanId)) {
      if (!first) yield COMMA_BYTES;
      first = false;
      yield asArrayElements(encoder.encode(rows));
    }
    yield Buffer.from(']');
  }
  if (types.has('token_breakdown')) {
    yield Buffer.from(
      `,"token_breakdown":${serialize.tokenBreakdown(JSON.parse(head.tokenBreakdown) as TokenBreakdown)}`,
    );
  }
  if (types.has('violations')) {
    yield Buffer.from(',"violations":[');
    let first = true;
    for await (const violations of violationChunks(db, head.scanId)) {
      yield Buffer.from(`${first ? '' : ','}${violations.map(serialize.violation).join(',')}`);
      first = false;
    }
    yield Buffer.from(']');
  }
  yield Buffer.from('}}');
}

/**
 * GET /v1/scans/:id/evidence as a byte stream, the same JSON the whole document serialized to:
 * the timeline (then the violations) is read a chunk at a time, only when the client has taken
 * what came before, so memory stays flat for any length and a slow reader never holds the store.
 * A read that fails mid-way fails the stream; the framework then ends the response unfinished.
 */
export function evidenceJson(db: Db, head: EvidenceHead, serialize: EvidenceSerializers): Readable {
  return Readable.from(evidenceBytes(db, head, serialize), { objectMode: false });
}
