import { describe, expect, it } from 'vitest';
import {
  CHECKPOINT_BYTES,
  passiveCheckpointDue,
  restartDue,
  RESTART_LOG_BYTES,
} from '../../../../src/main/db/sqlite/checkpoint-decision';

const MB = 1024 * 1024;

describe('when the WAL is checkpointed, and which way', () => {
  it('asks for no checkpoint below the checkpoint size', () => {
    expect(passiveCheckpointDue(CHECKPOINT_BYTES - 1, 0)).toEqual({ due: false, askedAtBytes: 0 });
  });

  it('asks for a passive one once the file passes the size, and again only once it grew past that', () => {
    const first = passiveCheckpointDue(5 * MB, 0);
    expect(first).toEqual({ due: true, askedAtBytes: 5 * MB });
    // The log started over in the same file: same size, nothing due.
    expect(passiveCheckpointDue(5 * MB, first.askedAtBytes)).toEqual({ due: false, askedAtBytes: 5 * MB });
    expect(passiveCheckpointDue(5 * MB + 4096, first.askedAtBytes)).toEqual({ due: true, askedAtBytes: 5 * MB + 4096 });
  });

  it('starts counting again once the file was cut', () => {
    // Cut to 4.5 MB from 20: the next checkpoint is due at once, and remembered at the new size.
    expect(passiveCheckpointDue(4.5 * MB, 20 * MB)).toEqual({ due: true, askedAtBytes: 4.5 * MB });
    // Cut below the checkpoint size: nothing due, but the old size is forgotten.
    expect(passiveCheckpointDue(MB, 20 * MB)).toEqual({ due: false, askedAtBytes: 0 });
  });

  it('follows a passive checkpoint with a restart only when the log had not started over', () => {
    const frames = (bytes: number): number => bytes / 4096;
    expect(restartDue({ busy: 0, log: frames(RESTART_LOG_BYTES), checkpointed: frames(RESTART_LOG_BYTES) })).toBe(true);
    expect(restartDue({ busy: 0, log: frames(60 * MB), checkpointed: frames(50 * MB) })).toBe(true);
    expect(restartDue({ busy: 0, log: frames(RESTART_LOG_BYTES) - 1, checkpointed: 0 })).toBe(false);
    // Not in WAL mode (a rollback journal for a bulk load).
    expect(restartDue({ busy: 0, log: -1, checkpointed: -1 })).toBe(false);
    // Larger pages: the same bytes are fewer frames.
    expect(restartDue({ busy: 0, log: RESTART_LOG_BYTES / 8192, checkpointed: 0 }, 8192)).toBe(true);
  });
});
