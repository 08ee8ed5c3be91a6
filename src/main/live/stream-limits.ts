// The bounds every open GET /v1/events stream lives within (docs/security.md).

/** Open streams one user may hold in one server process: a viewer window each, a few tabs. */
export const MAX_STREAMS_PER_USER = 8;

/**
 * How often open streams have their credentials checked against the store when nothing is
 * delivered: a token rotated or a session ended by another process ends its streams within this.
 */
export const RECHECK_MS = 5000;

/** A comment line this often keeps proxies and browsers from timing the stream out. */
export const HEARTBEAT_MS = 20_000;

/**
 * Bytes a stream may have waiting in the server (not yet taken by the socket) before the next
 * write; a viewer further behind is sent `reload` and closed rather than buffered without end.
 */
export const MAX_BUFFERED_BYTES = 256 * 1024;

/** The largest `scans` event, so that one import becomes many small events, not one huge one. */
export const MAX_EVENT_BYTES = 64 * 1024;

/** A closed stream whose viewer does not take its last bytes (`reload`) is dropped after this. */
export const CLOSE_GRACE_MS = 5000;
