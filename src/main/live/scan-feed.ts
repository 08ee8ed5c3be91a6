import type { ScanSummary } from '../../shared/api/scans';
import {
  type Db,
  dialectOf,
  listen,
  type Listener,
  notify,
  NOTIFY_MAX_BYTES,
  storeOf,
  type StorePart,
} from '../db/index';
import { jsonArrayChunks } from './json-array-chunks';

/** A stored scan as the feed tells of it: the list row, and whose it is (for visibility). */
export interface ScanNotice extends ScanSummary {
  submitted_by: string;
}

type Subscriber = (notices: ScanNotice[]) => void;

const CHANNEL = 'scandesk_scans';
const RELISTEN_MS = 2000;

/**
 * Tells open viewers of scans committed to one store. On SQLite (one process per store) it is an
 * in-process fan-out that does nothing at all while nobody listens. On PostgreSQL, where several
 * server processes share the store, publishing is a NOTIFY and every process with viewers LISTENs
 * on one connection, its own notifications included; a process without viewers holds none.
 */
export class ScanFeed {
  private readonly subscribers = new Set<Subscriber>();
  private listener: Promise<Listener | undefined> | undefined;
  private relisten: NodeJS.Timeout | undefined;
  private outbox: ScanNotice[] = [];

  private constructor(
    private readonly db: Db,
    private readonly shared: boolean,
  ) {}

  /** The feed of `db`'s store (store.ts), which owns it and closes it. */
  static of(db: Db): ScanFeed {
    return storeOf(db).part(ScanFeed.part);
  }

  private static readonly part: StorePart<ScanFeed> = {
    create: ({ db }) => new ScanFeed(db, dialectOf(db) === 'postgres'),
    close: (feed) => feed.close(),
  };

  /** Stops listening, as when the last subscriber leaves. */
  close(): Promise<void> {
    this.subscribers.clear();
    return this.stopListening();
  }

  /** Whether a publish goes anywhere: a writer of many scans makes no notices for nobody. */
  get heard(): boolean {
    return this.shared || this.subscribers.size > 0;
  }

  /** Call once the scans are committed. Never throws and never waits: viewers are a courtesy. */
  publish(notices: readonly ScanNotice[]): void {
    if (notices.length === 0) return;
    if (!this.shared) {
      if (this.subscribers.size > 0) setImmediate(() => this.deliver([...notices]));
      return;
    }
    // Submits committed in one group commit settle in one turn: one NOTIFY for all of them.
    if (this.outbox.length === 0) setImmediate(() => this.sendOutbox());
    this.outbox.push(...notices);
  }

  private sendOutbox(): void {
    const notices = this.outbox;
    this.outbox = [];
    for (const payload of jsonArrayChunks(notices, NOTIFY_MAX_BYTES)) {
      notify(this.db, CHANNEL, payload).catch(() => undefined);
    }
  }

  /** Hears every notice from now on until the returned function is called. */
  subscribe(subscriber: Subscriber): () => void {
    this.subscribers.add(subscriber);
    if (this.shared) this.listener ??= this.startListening();
    return () => {
      this.subscribers.delete(subscriber);
      if (this.subscribers.size === 0) void this.stopListening();
    };
  }

  private deliver(notices: ScanNotice[]): void {
    for (const subscriber of this.subscribers) subscriber(notices);
  }

  private async startListening(): Promise<Listener | undefined> {
    const lost = () => {
      this.listener = undefined;
      if (this.subscribers.size > 0) {
        this.relisten = setTimeout(() => {
          if (this.subscribers.size > 0) this.listener ??= this.startListening();
        }, RELISTEN_MS);
      }
    };
    try {
      return await listen(this.db, CHANNEL, (payload) => this.deliver(parsePayload(payload)), lost);
    } catch {
      lost();
      return undefined;
    }
  }

  private async stopListening(): Promise<void> {
    clearTimeout(this.relisten);
    const listener = this.listener;
    this.listener = undefined;
    await (await listener)?.close();
  }
}

function parsePayload(payload: string): ScanNotice[] {
  try {
    const parsed: unknown = JSON.parse(payload);
    return Array.isArray(parsed) ? (parsed as ScanNotice[]) : [];
  } catch {
    return [];
  }
}
