import { statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import {
  JOURNAL_SIZE_LIMIT_BYTES,
  passiveCheckpointDue,
  restartDue,
  type CheckpointReport,
} from './checkpoint-decision';
import { tablesToAnalyze, type OptimizeDebugRow } from './statistics-decision';

// SQLite copies the WAL back into the database file (a checkpoint) on the connection that commits,
// once the log passes 1000 pages: a million-entry import then waited 0.17–0.2 s for it after its
// commit, and a submit now and then for a smaller one. Here the writer never checkpoints itself
// (wal_autocheckpoint = 0); a worker thread with its own connection runs PASSIVE checkpoints, which
// take no lock that writers or readers wait for, when the log has grown past the same size, and a
// RESTART one after it while holding the writer when the log does not start over by itself
// (checkpoint-decision.ts says when). After a checkpoint it also gives planner statistics to the
// tables that have none yet or small ones (statistics-decision.ts says why), holding the writer as
// well.

// Plain CommonJS evaluated as the worker: it needs neither the TypeScript loader nor an entry of
// its own in the Electron bundle, and loads the same better-sqlite3 (and native binding) as the app.
// No busy timeout: a RESTART checkpoint runs while the checkpointer holds this process's writer, so
// only another process can be in its way, and then it answers busy at once rather than keep every
// submit here waiting (the next one tries again).
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const options = { timeout: 0, ...(workerData.nativeBinding ? { nativeBinding: workerData.nativeBinding } : {}) };
const db = new Database(workerData.file, options);
// Its ANALYZE writes may be the ones that start the log over: the file is cut back as the writer's is.
db.pragma('journal_size_limit = ' + workerData.journalSizeLimit);
// The rows each table's statistics count (the first number of a stat1 row is its table's rows).
const statTables = () =>
  db.prepare("select name from sqlite_schema where name = 'sqlite_stat1'").get() === undefined
    ? []
    : db.prepare('select tbl, max(cast(stat as integer)) as rows from sqlite_stat1 group by tbl').raw().all();
parentPort.on('message', (message) => {
  if (message === 'close') {
    db.close();
    process.exit(0);
  }
  try {
    if (message === 'statistics') {
      // Debug mode (0x1): what a full optimize would analyze, without doing it.
      parentPort.postMessage({ wanted: db.pragma('optimize = 0x10003'), analyzed: statTables() });
    } else if (typeof message === 'object') {
      for (const table of message.analyze) db.exec('analyze "main"."' + table.replaceAll('"', '""') + '"');
      parentPort.postMessage({ analyzed: message.analyze.length });
    } else {
      const [report] = db.pragma(message === 'restart' ? 'wal_checkpoint(RESTART)' : 'wal_checkpoint(PASSIVE)');
      parentPort.postMessage(report);
    }
  } catch (error) {
    parentPort.postMessage({ error: String(error && error.message) });
  }
});
`;

/** The writer of this process, as the driver hands it out: one transaction at a time. */
export interface WriterLock {
  lock(): Promise<void>;
  unlock(): void;
}

export interface CheckpointerOptions {
  /** The Electron-ABI addon, as the writer was opened with. */
  nativeBinding?: string | undefined;
  /** Called once if the worker fails: the writer must then checkpoint itself again. */
  onFailure: () => void;
  /**
   * Called while the writer is held, once the worker has written new planner statistics: the
   * app's connections load statistics only when they open, and must load them again.
   */
  onStatistics?: () => void;
}

/** What the worker answers to 'statistics'. */
interface StatisticsReport {
  wanted: OptimizeDebugRow[];
  /** [table, rows its statistics count]. */
  analyzed: [string, number][];
}

type Message = 'passive' | 'restart' | 'statistics' | { analyze: string[] };

export class WalCheckpointer {
  private worker: Worker | null = null;
  private running: Promise<void> | null = null;
  /** Hears the worker's answer to what it was last asked (null: it failed or exited). */
  private answer: ((report: unknown) => void) | null = null;
  private failed = false;
  /** The log file's size when the last checkpoint was asked for. */
  private askedAt = 0;
  /** Holds taken by hold() and not yet released: no checkpoint is asked for meanwhile. */
  private holds = 0;
  /** The writer, held while a RESTART checkpoint runs; without it only PASSIVE ones are run. */
  private writer: WriterLock | null = null;
  /** Checkpoints asked for so far (PASSIVE ones; each RESTART follows one). */
  checkpoints = 0;
  /** RESTART checkpoints run so far. */
  restarts = 0;
  /** Tables given statistics here so far. */
  readonly analyzedTables = new Set<string>();
  private readonly driver = createRequire(import.meta.url).resolve('better-sqlite3');

  constructor(
    private readonly file: string,
    private readonly options: CheckpointerOptions,
  ) {}

  /** The lock every writer of this process takes (the driver's): a RESTART checkpoint holds it. */
  useWriterLock(writer: WriterLock): void {
    this.writer = writer;
  }

  /** After a write on the writer: asks for a checkpoint once the log has grown past the threshold. */
  wrote(): void {
    if (this.failed || this.running || this.holds > 0) return;
    let size: number;
    try {
      size = statSync(`${this.file}-wal`).size;
    } catch {
      return; // No log: a rollback journal (withRollbackJournal) or nothing written yet.
    }
    const decision = passiveCheckpointDue(size, this.askedAt);
    this.askedAt = decision.askedAtBytes;
    if (!decision.due) return;
    this.checkpoints += 1;
    this.running = this.checkpoint().finally(() => (this.running = null));
  }

  /**
   * Asks for no checkpoint until the returned release is called (then one, if due). A long write
   * made of many commits (a staged import) would otherwise have its log copied back while it
   * runs, each time it grows, on the same cores: a 1M-entry import lost a fifth of its pace. Held,
   * the log grows as it did when such a write was one transaction, and is copied back once.
   */
  hold(): () => void {
    this.holds += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.holds -= 1;
      this.wrote();
    };
  }

  /**
   * Starts the worker now rather than at the first checkpoint: a server's memory at rest then
   * includes it, instead of the first large write paying for it.
   */
  warm(): void {
    if (!this.failed) this.worker ??= this.start();
  }

  /** Resolves once no checkpoint is running. */
  async settled(): Promise<void> {
    await this.running;
  }

  /** Closes the worker's connection (the file then has only the app's); a later write starts another. */
  async stop(): Promise<void> {
    const worker = this.worker;
    if (!worker) return;
    this.worker = null;
    const exited = new Promise((resolve) => worker.once('exit', resolve));
    worker.ref();
    worker.postMessage('close');
    await exited;
    this.hear(null);
  }

  /**
   * A PASSIVE checkpoint, a RESTART one after it if the log did not start over by itself, and then
   * statistics for the tables that have none or small ones.
   */
  private async checkpoint(): Promise<void> {
    const report = (await this.ask((this.worker ??= this.start()), 'passive')) as CheckpointReport | null;
    if (!report || !this.writer) return;
    if (restartDue(report)) {
      await this.holdingWriter(async (worker) => {
        this.restarts += 1;
        await this.ask(worker, 'restart');
      });
    }
    await this.analyzeTables();
  }

  /** ANALYZE, on the worker and holding the writer, of the tables with rows and no or small statistics. */
  private async analyzeTables(): Promise<void> {
    if (!this.worker) return;
    const report = (await this.ask(this.worker, 'statistics')) as StatisticsReport | null;
    if (!report) return;
    const tables = tablesToAnalyze(report.wanted, new Map(report.analyzed));
    if (tables.length === 0) return;
    await this.holdingWriter(async (worker) => {
      for (const table of tables) this.analyzedTables.add(table);
      if ((await this.ask(worker, { analyze: tables })) !== null) this.options.onStatistics?.();
    });
  }

  /** Runs `work` on the worker while holding this process's writer; not once the worker was stopped. */
  private async holdingWriter(work: (worker: Worker) => Promise<void>): Promise<void> {
    const writer = this.writer!;
    await writer.lock();
    try {
      // Stopped meanwhile (the store closes, or leaves WAL): nothing to do.
      if (this.worker) await work(this.worker);
    } finally {
      writer.unlock();
    }
  }

  private ask(worker: Worker, message: Message): Promise<unknown> {
    // Held while it works, so that whoever awaits settled() or stop() is not left behind by an exit.
    worker.ref();
    const answered = new Promise<unknown>((resolve) => (this.answer = resolve));
    worker.postMessage(message);
    return answered;
  }

  private start(): Worker {
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: {
        driver: this.driver,
        file: this.file,
        nativeBinding: this.options.nativeBinding,
        journalSizeLimit: JOURNAL_SIZE_LIMIT_BYTES,
      },
    });
    // Idle, it does not keep a process that is otherwise done alive (ask() holds it while it works).
    worker.unref();
    worker.on('message', (message: object) => {
      // Idle again, unless stop() is waiting for it.
      if (this.worker === worker) worker.unref();
      this.hear('error' in message ? null : message);
    });
    worker.on('error', () => this.fail(worker));
    worker.on('exit', () => this.fail(worker));
    return worker;
  }

  private hear(report: unknown): void {
    const answer = this.answer;
    this.answer = null;
    answer?.(report);
  }

  /** The worker died on its own (stop() has already let go of a worker it closes). */
  private fail(worker: Worker): void {
    if (this.worker !== worker) return;
    this.worker = null;
    this.failed = true;
    this.hear(null);
    this.options.onFailure();
  }
}
