// When the WAL checkpointer (wal-checkpointer.ts) copies the log back, and which way. A PASSIVE
// checkpoint takes no lock anyone waits for, but it only copies the frames that were in the log when
// it began; the log starts over (its frames are overwritten from the start of the file) only when
// a writer begins while every frame has been copied and no reader is in the log. Under writes that
// never pause, frames keep arriving while a PASSIVE checkpoint runs, so the log never starts over
// and its file grows without end (21 → 87 MB in 32 s of submits). Once a PASSIVE checkpoint finds
// a long log, a RESTART one follows while the checkpointer holds the writer: it copies only what
// came since (the PASSIVE one did the rest, without holding anyone up) and makes the next write
// start the log over; `journal_size_limit` then cuts a file that had grown back to that size.

/** SQLite's own auto-checkpoint size, in pages: restored on the writer when the checkpointer cannot run. */
export const DEFAULT_AUTOCHECKPOINT_PAGES = 1000;

/** The log size after which a checkpoint is asked for: SQLite's default, in pages of 4 KiB. */
export const CHECKPOINT_BYTES = DEFAULT_AUTOCHECKPOINT_PAGES * 4096;

/**
 * A log this long when a PASSIVE checkpoint ran has not started over for two checkpoints' worth of
 * writes: the writer does not pause by itself, so the checkpointer makes it.
 */
export const RESTART_LOG_BYTES = 2 * CHECKPOINT_BYTES;

/** What the WAL file is cut back to when the log starts over (pragma journal_size_limit). */
export const JOURNAL_SIZE_LIMIT_BYTES = 16 * 1024 * 1024;

export interface PassiveDecision {
  due: boolean;
  /** The file size to remember as the one the last checkpoint was asked at. */
  askedAtBytes: number;
}

/**
 * After a write: whether a PASSIVE checkpoint is due, given the WAL file's size now and when the
 * last one was asked for. The file keeps its size when the log starts over (new frames overwrite
 * old ones), so one is due only once the file has grown past the size it had when the last was
 * asked for; asking whenever it was past 4 MB checkpointed after every commit, each copying a
 * batch's few pages. A file smaller than then was cut (journal_size_limit, a TRUNCATE checkpoint,
 * or every connection closed): counting starts again.
 */
export function passiveCheckpointDue(walBytes: number, askedAtBytes: number): PassiveDecision {
  const askedAt = walBytes < askedAtBytes ? 0 : askedAtBytes;
  if (walBytes < CHECKPOINT_BYTES || walBytes <= askedAt) return { due: false, askedAtBytes: askedAt };
  return { due: true, askedAtBytes: walBytes };
}

/** What `pragma wal_checkpoint` answers: busy (0/1), frames in the log, frames copied back. */
export interface CheckpointReport {
  busy: number;
  log: number;
  checkpointed: number;
}

/**
 * After a PASSIVE checkpoint: whether a RESTART one must follow. Only for a long log: a short one
 * started over since the last checkpoint, so the writer pauses by itself and holding it would
 * cost a submit a wait for nothing. `log` is -1 when the file is not in WAL mode.
 */
export function restartDue(report: CheckpointReport, pageBytes = 4096): boolean {
  return report.log * pageBytes >= RESTART_LOG_BYTES;
}
