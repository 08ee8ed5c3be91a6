import { readdirSync, readFileSync } from 'node:fs';

// CPU time by process, read from /proc: what a multi-process run costs whatever else the machine
// is doing, where its wall time on a shared machine says little. Linux only; elsewhere null.

/** Clock ticks per second of /proc/<pid>/stat (USER_HZ, 100 on Linux). */
const TICKS = 100;
const SAMPLE_MS = 200;

/** utime + stime of `pid` in seconds, or null once it is gone. */
export function cpuOf(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name may hold spaces and parentheses: the fields after it start past the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS;
  } catch {
    return null;
  }
}

function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return '';
  }
}

/**
 * Samples the CPU time of the processes whose command line `matches` (a group, e.g. the
 * PostgreSQL backends of one database) until stopped; a process that exits keeps its last sample,
 * so at most one sampling interval of it is missed.
 */
export class CpuSampler {
  private readonly start = new Map<number, number>();
  private readonly last = new Map<number, number>();
  /** Processes that did not match, with how often: a new one may still be taking its title. */
  private readonly passed = new Map<number, number>();
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly matches: (commandLine: string, pid: number) => boolean) {
    this.sample(true);
    this.timer = setInterval(() => this.sample(false), SAMPLE_MS);
  }

  private sample(first: boolean): void {
    let pids: number[];
    try {
      pids = readdirSync('/proc').flatMap((name) => (/^\d+$/.test(name) ? [Number(name)] : []));
    } catch {
      return;
    }
    for (const pid of pids) {
      if ((this.passed.get(pid) ?? 0) >= 2) continue;
      if (!this.last.has(pid) && !this.matches(commandLine(pid), pid)) {
        this.passed.set(pid, (this.passed.get(pid) ?? 0) + 1);
        continue;
      }
      const cpu = cpuOf(pid);
      if (cpu === null) continue;
      // A process already running when sampling began counts from then; a new one from its start.
      if (!this.start.has(pid)) this.start.set(pid, first ? cpu : 0);
      this.last.set(pid, cpu);
    }
  }

  /** Seconds of CPU the group used since the sampler started; null where /proc cannot be read. */
  stop(): number | null {
    clearInterval(this.timer);
    return this.read();
  }

  /** As stop(), without stopping: the group's CPU so far. */
  read(): number | null {
    this.sample(false);
    if (this.last.size === 0) return null;
    let seconds = 0;
    for (const [pid, cpu] of this.last) seconds += cpu - this.start.get(pid)!;
    return seconds;
  }
}
