import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const STOP_GRACE_MS = 10_000;

/** Resolves when the child has exited (at once if it already has). */
export function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

/**
 * Everything a run leaves behind: temp dirs and child processes. `cleanup()` runs at the end of
 * every run; the `exit` hook is the last resort when the harness itself dies (an uncaught error,
 * Ctrl-C), so that no server child and no gigabyte of temp data outlives it.
 */
export class Scratch {
  private readonly dirs = new Set<string>();
  private readonly children = new Set<ChildProcess>();
  private readonly onExit = (): void => this.cleanupSync();

  constructor() {
    process.on('exit', this.onExit);
  }

  tempDir(prefix: string): string {
    const dir = mkdtempSync(join(tmpdir(), `scandesk-bench-${prefix}-`));
    this.dirs.add(dir);
    return dir;
  }

  /** Tracks a child until it exits, so that cleanup can stop it by its own pid. */
  track(child: ChildProcess): ChildProcess {
    this.children.add(child);
    child.once('exit', () => this.children.delete(child));
    return child;
  }

  /** SIGTERM, then SIGKILL if it does not stop in time. */
  async stop(child: ChildProcess, graceMs = STOP_GRACE_MS): Promise<void> {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    await exited(child);
    clearTimeout(timer);
  }

  async removeDir(dir: string): Promise<void> {
    await rm(dir, { recursive: true, force: true });
    this.dirs.delete(dir);
  }

  async cleanup(): Promise<void> {
    await Promise.all([...this.children].map((child) => this.stop(child)));
    await Promise.all([...this.dirs].map((dir) => this.removeDir(dir)));
    process.off('exit', this.onExit);
  }

  private cleanupSync(): void {
    for (const child of this.children) child.kill('SIGKILL');
    for (const dir of this.dirs) rmSync(dir, { recursive: true, force: true });
  }
}
