import type { TimelineEntry } from '../../../shared/api/scans';
import type { BinaryCopyRows, TimelineEntryRow } from '../../db/index';

/**
 * A timeline entry as every part of the core holds it (submit, import, demo, the store): the
 * API's entry with its timestamp as epoch ms. Its seq is its position in its timeline.
 */
export type StoredTimelineEntry = Omit<TimelineEntry, 'timestamp'> & { timestamp: number };

/** A stored entry read back with its seq. */
export type TimelineRow = Omit<TimelineEntryRow, 'timeline_id'>;

/** A timeline row as the export reads it: an array per row costs less than an object. */
export type TimelineTuple = [seq: number, timestamp: number, action: string, tokens: number];

/**
 * A chunk of a timeline as the export reads it: rows as arrays, or on PostgreSQL a binary COPY of
 * the same four columns in the same order (TimelineJsonlEncoder takes both).
 */
export type TimelineExportChunk = TimelineTuple[] | BinaryCopyRows;

/**
 * Entries handed on at a time wherever a timeline streams: a read of the store (the evidence
 * body, the export, an import's comparison with a stored scan) and an import's inline timelines.
 */
export const TIMELINE_CHUNK = 5000;
