import { readFileSync, writeFileSync } from 'node:fs';

export const MB = 1024 * 1024;

/** A `Vm*` field of /proc/<pid>/status in bytes, or null (not Linux, or the process is gone). */
export function procStatusBytes(pid: number, field: 'VmRSS' | 'VmHWM'): number | null {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return null;
  }
  const match = new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(text);
  return match ? Number(match[1]) * 1024 : null;
}

/**
 * Resets the kernel's peak RSS (VmHWM) of a process to its current RSS (Linux ≥ 4.0, own
 * processes only), so that the peak read later belongs to the measured operation and not to
 * the process's start, which can be higher than its idle state.
 */
export function resetPeak(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

/**
 * Samples a process's RSS while an operation runs. VmHWM (the kernel's own peak) misses nothing;
 * the sampled maximum is the fallback where VmHWM is unavailable or could not be reset.
 */
export class RssSampler {
  private max = 0;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly pid: number,
    intervalMs = 20,
  ) {
    this.sample();
    this.timer = setInterval(() => this.sample(), intervalMs);
  }

  private sample(): void {
    const rss = procStatusBytes(this.pid, 'VmRSS');
    if (rss !== null && rss > this.max) this.max = rss;
  }

  /** Stops sampling; the peak is the larger of VmHWM (if trusted) and the sampled maximum. */
  stop(trustHwm: boolean): { peak: number; method: string } {
    clearInterval(this.timer);
    this.sample();
    const hwm = trustHwm ? procStatusBytes(this.pid, 'VmHWM') : null;
    if (hwm !== null) return { peak: Math.max(hwm, this.max), method: 'VmHWM' };
    return { peak: this.max, method: 'sampled VmRSS' };
  }
}
