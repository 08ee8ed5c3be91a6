import type { ServerResponse } from 'node:http';
import type { ScanSummary } from '../../shared/api/scans';
import { type Db, storeOf, type StorePart } from '../db/index';
import { conflict } from '../domain-error';
import type { Credential } from '../http/credential';
import { credentialLives, type StoredCredentials } from './credential-check';
import { readCredentials, readManagers } from './live.repository';
import { ScanFeed, type ScanNotice } from './scan-feed';
import { HEARTBEAT, RELOAD_EVENT, scansEvents } from './sse-events';
import { SseStream } from './sse-stream';
import { HEARTBEAT_MS, MAX_EVENT_BYTES, MAX_STREAMS_PER_USER, RECHECK_MS } from './stream-limits';
import { organizationsOf, visibleTo } from './stream-visibility';

/** Which open streams to end: those matching every field given (none given: none). */
export interface StreamFilter {
  userId?: string;
  /** tokens.id of the bearer token that opened the stream. */
  tokenId?: string;
  /** sessions.id_hash (hashToken of the cookie's session id) of the session that opened it. */
  sessionIdHash?: string;
}

/** The store reads a delivery or a check makes: one each, whatever the number of streams. */
export interface LiveReads {
  credentials(tokenIds: readonly string[], sessionIdHashes: readonly string[]): Promise<StoredCredentials>;
  managers(userIds: readonly string[], organizationIds: readonly string[]): Promise<ReadonlySet<string>>;
}

export interface NoticeSource {
  subscribe(subscriber: (notices: ScanNotice[]) => void): () => void;
}

interface OpenStream {
  userId: string;
  credential: Credential;
  stream: SseStream;
}

/**
 * Every open GET /v1/events stream of one store in this process. One subscription to the scan
 * feed serves them all, and each delivery, in order, first checks the credentials of every open
 * stream in one read (ending those whose token or session is gone, whoever ended it: this
 * process, the CLI, another server on the same database), then decides who may hear of what with
 * one read of the managers among the users with streams. Without deliveries the credentials are
 * checked every RECHECK_MS.
 */
export class LiveStreams {
  private readonly streams = new Set<OpenStream>();
  private readonly perUser = new Map<string, number>();
  private unsubscribe: (() => void) | undefined;
  private timer: NodeJS.Timeout | undefined;
  private ticks = 0;
  private pending: ScanNotice[] = [];
  private checkDue = false;
  private running: Promise<void> | undefined;

  constructor(
    private readonly reads: LiveReads,
    private readonly feed: NoticeSource,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** This process's streams of `db`, if it ever had any. */
  static existing(db: Db): LiveStreams | undefined {
    return storeOf(db).existing(LiveStreams.part);
  }

  /** The hub of `db`'s store (store.ts), which owns it and closes it before the feed it listens to. */
  static of(db: Db): LiveStreams {
    return storeOf(db).part(LiveStreams.part);
  }

  private static readonly part: StorePart<LiveStreams> = {
    create: ({ db }) => {
      const reads: LiveReads = {
        credentials: (tokenIds, sessionIdHashes) => readCredentials(db, tokenIds, sessionIdHashes),
        managers: (userIds, organizationIds) => readManagers(db, userIds, organizationIds),
      };
      return new LiveStreams(reads, ScanFeed.of(db));
    },
    close: (hub) => hub.shutDown(),
  };

  /** Stops hearing the feed and checking credentials (the streams themselves end with the server). */
  shutDown(): void {
    this.stop();
  }

  /** Open streams, all users. */
  get size(): number {
    return this.streams.size;
  }

  /**
   * Takes `response` as a stream of `userId`'s, opened with `credential`; refuses (409) a user
   * who already holds MAX_STREAMS_PER_USER. Nothing is written to `response` before it returns.
   */
  open(userId: string, credential: Credential, response: ServerResponse): SseStream {
    const held = this.perUser.get(userId) ?? 0;
    if (held >= MAX_STREAMS_PER_USER) {
      throw conflict(
        `${MAX_STREAMS_PER_USER} event streams are already open for this user (a viewer window or tab each); close one first`,
        [{ message: `at most ${MAX_STREAMS_PER_USER} open event streams per user` }],
      );
    }
    const entry: OpenStream = { userId, credential, stream: new SseStream(response) };
    this.streams.add(entry);
    this.perUser.set(userId, held + 1);
    response.once('close', () => this.forget(entry));
    if (this.streams.size === 1) this.start();
    return entry.stream;
  }

  /** Ends at once the matching streams of this process (see StreamFilter); how many it ended. */
  end(filter: StreamFilter): number {
    if (filter.userId === undefined && filter.tokenId === undefined && filter.sessionIdHash === undefined) return 0;
    let ended = 0;
    for (const entry of [...this.streams]) {
      const { credential } = entry;
      if (filter.userId !== undefined && entry.userId !== filter.userId) continue;
      if (filter.tokenId !== undefined && (credential.kind !== 'token' || credential.tokenId !== filter.tokenId)) {
        continue;
      }
      if (
        filter.sessionIdHash !== undefined &&
        (credential.kind !== 'session' || credential.sessionIdHash !== filter.sessionIdHash)
      ) {
        continue;
      }
      this.close(entry);
      ended += 1;
    }
    return ended;
  }

  /** Resolves once what is queued (deliveries, a check) has run; for tests and shutdown. */
  async settled(): Promise<void> {
    while (this.running) await this.running;
  }

  private start(): void {
    this.unsubscribe = this.feed.subscribe((notices) => {
      this.pending.push(...notices);
      this.kick();
    });
    this.ticks = 0;
    this.timer = setInterval(() => this.tick(), RECHECK_MS);
    this.timer.unref();
  }

  private stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    this.pending = [];
  }

  private tick(): void {
    this.ticks += 1;
    if (this.ticks % Math.round(HEARTBEAT_MS / RECHECK_MS) === 0) {
      for (const entry of [...this.streams]) this.send(entry, HEARTBEAT);
    }
    this.checkDue = true;
    this.kick();
  }

  /** False when the stream was too far behind, and is closed now. */
  private send(entry: OpenStream, chunk: Buffer): boolean {
    if (entry.stream.send(chunk)) return true;
    this.forget(entry);
    return false;
  }

  private close(entry: OpenStream, last?: Buffer): void {
    this.forget(entry);
    entry.stream.close(last);
  }

  private forget(entry: OpenStream): void {
    if (!this.streams.delete(entry)) return;
    const held = (this.perUser.get(entry.userId) ?? 1) - 1;
    if (held > 0) this.perUser.set(entry.userId, held);
    else this.perUser.delete(entry.userId);
    if (this.streams.size === 0) this.stop();
  }

  /** Runs the queue unless it runs already: notices arriving meanwhile join the next delivery. */
  private kick(): void {
    this.running ??= this.drain().finally(() => (this.running = undefined));
  }

  private async drain(): Promise<void> {
    while (this.streams.size > 0 && (this.pending.length > 0 || this.checkDue)) {
      const notices = this.pending;
      this.pending = [];
      this.checkDue = false;
      try {
        await this.checkCredentials();
        if (notices.length > 0) await this.deliver(notices);
      } catch {
        // Unverified credentials hear nothing; what the viewers missed they refetch when back.
        for (const entry of [...this.streams]) this.close(entry, RELOAD_EVENT);
      }
    }
  }

  private async checkCredentials(): Promise<void> {
    const tokenIds = new Set<string>();
    const sessionIdHashes = new Set<string>();
    for (const { credential } of this.streams) {
      if (credential.kind === 'token') tokenIds.add(credential.tokenId);
      else sessionIdHashes.add(credential.sessionIdHash);
    }
    const stored = await this.reads.credentials([...tokenIds], [...sessionIdHashes]);
    const at = this.now();
    for (const entry of [...this.streams]) {
      if (!credentialLives(entry.credential, stored, at)) this.close(entry);
    }
  }

  private async deliver(notices: readonly ScanNotice[]): Promise<void> {
    const userIds = [...new Set([...this.streams].map((entry) => entry.userId))];
    const managers = await this.reads.managers(userIds, organizationsOf(notices));
    // Users who may see the same scans share the same bytes.
    const events = new Map<string, Buffer[]>();
    const eventsOf = new Map<string, Buffer[]>();
    for (const userId of userIds) {
      const visible = visibleTo(userId, notices, managers);
      if (visible.length === 0) continue;
      const key = visible.join(',');
      let bytes = events.get(key);
      if (!bytes) {
        const scans = visible.map((index) => summaryOf(notices[index]!));
        events.set(key, (bytes = scansEvents(scans, MAX_EVENT_BYTES)));
      }
      eventsOf.set(userId, bytes);
    }
    for (const entry of [...this.streams]) {
      for (const event of eventsOf.get(entry.userId) ?? []) if (!this.send(entry, event)) break;
    }
  }
}

function summaryOf({ submitted_by: _submitter, ...summary }: ScanNotice): ScanSummary {
  return summary;
}
