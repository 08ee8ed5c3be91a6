import { spawn } from 'node:child_process';
import { accessSync, closeSync, constants, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { procStatusBytes } from './memory';
import { exited, type Scratch } from './scratch';

const GNU_TIME = '/usr/bin/time';

export interface CommandOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** Where stdout goes: a file path (e.g. /dev/null), or kept in memory (default). */
  stdoutFile?: string;
}

export interface CommandRun {
  wallMs: number;
  /** Peak RSS of the command in bytes. */
  peakRss: number;
  /** How peakRss was obtained. */
  memoryMethod: string;
  stdout: string;
  stderr: string;
}

function hasGnuTime(): boolean {
  try {
    accessSync(GNU_TIME, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * Runs a command to completion and measures its wall time and peak RSS. GNU time reports the
 * kernel's maxrss from wait4(), exact even for a process that lives a few milliseconds; without
 * it the child's VmHWM is polled, which can only under-report. Fails on a non-zero exit.
 */
export async function runCommand(
  scratch: Scratch,
  command: string,
  args: readonly string[],
  options: CommandOptions = {},
): Promise<CommandRun> {
  const gnuTime = hasGnuTime();
  const timeFile = join(tmpdir(), `scandesk-bench-time-${process.pid}-${Date.now()}-${Math.random()}`);
  const [file, argv] = gnuTime ? [GNU_TIME, ['-f', '%M', '-o', timeFile, command, ...args]] : [command, [...args]];
  const stdoutFd = options.stdoutFile === undefined ? null : openSync(options.stdoutFile, 'w');
  let stdout = '';
  let stderr = '';
  const started = performance.now();
  const child = scratch.track(
    spawn(file, argv, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: ['ignore', stdoutFd ?? 'pipe', 'pipe'],
    }),
  );
  let polledPeak = 0;
  const poll = gnuTime
    ? null
    : setInterval(() => {
        const hwm = child.pid === undefined ? null : procStatusBytes(child.pid, 'VmHWM');
        if (hwm !== null && hwm > polledPeak) polledPeak = hwm;
      }, 5);
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const failedToStart = new Promise<never>((_, reject) => child.once('error', reject));
  try {
    await Promise.race([exited(child), failedToStart]);
  } finally {
    if (poll) clearInterval(poll);
    if (stdoutFd !== null) closeSync(stdoutFd);
  }
  const wallMs = performance.now() - started;
  let peakRss = polledPeak;
  if (gnuTime) {
    const text = readFileSync(timeFile, 'utf8');
    rmSync(timeFile, { force: true });
    // GNU time writes "Command exited with non-zero status N" before the format on failure.
    const kib = Number(text.trim().split('\n').pop());
    peakRss = Number.isFinite(kib) ? kib * 1024 : 0;
  }
  if (child.exitCode !== 0) {
    throw new Error(`${command} ${args.join(' ')} exited with ${child.exitCode ?? child.signalCode}: ${stderr.trim()}`);
  }
  return {
    wallMs,
    peakRss,
    memoryMethod: gnuTime ? 'GNU time maxrss' : 'polled VmHWM',
    stdout,
    stderr,
  };
}
