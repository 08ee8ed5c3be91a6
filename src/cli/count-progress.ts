const count = (n: number): string => n.toLocaleString('en-US');

/**
 * Progress of a long count (demo scans, copied rows) on stderr: a redrawn bar on a terminal
 * (≤ 10 per second), else a line per 10%, so that a log shows it moving without flooding.
 */
export function countProgress(
  stream: { isTTY?: boolean | undefined; write(text: string): unknown },
  unit: string,
  started = performance.now(),
): (done: number, total: number) => void {
  let lastDraw = 0;
  let lastDecile = 0;
  return (done, total) => {
    const elapsed = ((performance.now() - started) / 1000).toFixed(1);
    const share = total === 0 ? 1 : done / total;
    const text = `${String(Math.floor(share * 100)).padStart(3)}%  ${count(done)}/${count(total)} ${unit}  ${elapsed} s`;
    if (stream.isTTY) {
      const now = performance.now();
      if (now - lastDraw < 100 && done < total) return;
      lastDraw = now;
      const filled = Math.round(share * 20);
      stream.write(`\r[${'#'.repeat(filled)}${'.'.repeat(20 - filled)}] ${text}\x1b[K${done === total ? '\n' : ''}`);
      return;
    }
    const decile = Math.floor(share * 10);
    if (decile > lastDecile) {
      lastDecile = decile;
      stream.write(`${text}\n`);
    }
  };
}
