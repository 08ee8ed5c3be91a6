import type { ScanSummary } from '../../shared/api/scans';
import { jsonArrayChunks } from './json-array-chunks';

// The bytes of GET /v1/events (text/event-stream), made once and shared by every stream sent them.

/** Tells the viewer it missed events: refetch what it shows (and reconnect, the stream ends). */
export const RELOAD_EVENT = Buffer.from('event: reload\ndata: {}\n\n');

export const HEARTBEAT = Buffer.from(': keep-alive\n\n');

/** The first bytes of a stream: how soon a browser reconnects after it ends (a restart, say). */
export const greeting = (retryMs: number): Buffer => Buffer.from(`retry: ${retryMs}\n: connected\n\n`);

const SCANS_PREFIX = 'event: scans\ndata: {"scans":';
const SCANS_SUFFIX = '}\n\n';

/** `scans` events of at most `maxBytes` each carrying `scans` in order. */
export function scansEvents(scans: readonly ScanSummary[], maxBytes: number): Buffer[] {
  const room = maxBytes - Buffer.byteLength(SCANS_PREFIX) - Buffer.byteLength(SCANS_SUFFIX);
  return jsonArrayChunks(scans, room).map((array) => Buffer.from(SCANS_PREFIX + array + SCANS_SUFFIX));
}
