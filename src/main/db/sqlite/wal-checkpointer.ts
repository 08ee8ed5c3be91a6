import { statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

// SQLite copies the WAL back into the database file (a checkpoint) on the connection that commits,
// once the log passes 1000 pages: a million-entry import then waited 0.17–0.2 s for it after its
// commit, and a submit now and then for a smaller one. Here the writer never checkpoints itself
// (wal_autocheckpoint = 0); a worker thread with its own connection runs PASSIVE checkpoints, which
// take no lock that writers or readers wait for, when the log has grown past the same size. The
// writer then starts the log over at its next commit, as it would after its own checkpoint. The
// file keeps its size when the log starts over (new frames overwrite the old ones), so a checkpoint
// is due only once the file grows past the size it had when the last one was asked for: asking
// whenever it was past 4 MB checkpointed after every commit from then on, each copying a batch's
// few pages, which cost a submission under load 23 µs of the worker's CPU against its 207 µs.

/** SQLite's own default, restored on the writer when the worker cannot run. */
export const DEFAULT_AUTOCHECKPOINT_PAGES = 1000;

/** The log size after which a checkpoint is asked for: SQLite's default, in pages of 4 KiB. */
const CHECKPOINT_BYTES = DEFAULT_AUTOCHECKPOINT_PAGES * 4096;

// Plain CommonJS evaluated as the worker: it needs neither the TypeScript loader nor an entry of
// its own in the Electron bundle, and loads the same better-sqlite3 (and native binding) as the app.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const options = workerData.nativeBinding ? { nativeBinding: workerData.nativeBinding } : {};
const db = new Database(workerData.file, options);
parentPort.on('message', (message) => {
  if (message === 'close') {
    db.close();
    process.exit(0);
  }
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
    parentPort.postMessage('done');
  } catch (error) {
    parentPort.postMessage(String(error && error.message));
  }
});
`;

export interface CheckpointerOptions {
  /** The Electron-ABI addon, as the writer was opened with. */
  nativeBinding?: string | undefined;
  /** Called once if the worker fails: the writer must then checkpoint itself again. */
  onFailure: () => void;
}

export class WalCheckpointer {
  private worker: Worker | null = null;
  private running: Promise<void> | null = null;
  private finish: (() => void) | null = null;
  private failed = false;
  /** The log file's size when the last checkpoint was asked for. */
  private askedAt = 0;
  /** Holds taken by hold() and not yet released: no checkpoint is asked for meanwhile. */
  private holds = 0;
  /** Checkpoints asked for so far. */
  checkpoints = 0;
  private readonly driver = createRequire(import.meta.url).resolve('better-sqlite3');

  constructor(
    private readonly file: string,
    private readonly options: CheckpointerOptions,
  ) {}

  /** After a write on the writer: asks for a checkpoint once the log has grown past the threshold. */
  wrote(): void {
    if (this.failed || this.running || this.holds > 0) return;
    let size: number;
    try {
      size = statSync(`${this.file}-wal`).size;
    } catch {
      return; // No log: a rollback journal (withRollbackJournal) or nothing written yet.
    }
    // Smaller than before: truncated (every connection closed, or a TRUNCATE checkpoint).
    if (size < this.askedAt) this.askedAt = 0;
    if (size < CHECKPOINT_BYTES || size <= this.askedAt) return;
    this.askedAt = size;
    this.checkpoints += 1;
    this.running = new Promise((resolve) => (this.finish = resolve));
    const worker = (this.worker ??= this.start());
    // Held while it works, so that whoever awaits settled() or stop() is not left behind by an exit.
    worker.ref();
    worker.postMessage('checkpoint');
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
    this.settle();
  }

  private start(): Worker {
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { driver: this.driver, file: this.file, nativeBinding: this.options.nativeBinding },
    });
    // Idle, it does not keep a process that is otherwise done alive (wrote() holds it while it works).
    worker.unref();
    worker.on('message', () => {
      // Idle again, unless stop() is waiting for it.
      if (this.worker === worker) worker.unref();
      this.settle();
    });
    worker.on('error', () => this.fail(worker));
    worker.on('exit', () => this.fail(worker));
    return worker;
  }

  private settle(): void {
    const finish = this.finish;
    this.running = null;
    this.finish = null;
    finish?.();
  }

  /** The worker died on its own (stop() has already let go of a worker it closes). */
  private fail(worker: Worker): void {
    if (this.worker !== worker) return;
    this.worker = null;
    this.failed = true;
    this.settle();
    this.options.onFailure();
  }
}
