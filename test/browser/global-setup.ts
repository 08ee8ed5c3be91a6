import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The demo data the browser suite reads: fixed seed and clock, so every run sees the same scans. */
export const DEMO = { scans: 3000, seed: 7, now: '2026-11-20T12:00:00.000Z' } as const;

/**
 * Fills a demo data directory and starts a real `scandesk serve` on a free port for the browser
 * suite; the teardown stops it. Specs read SCANDESK_URL, SCANDESK_TOKEN and SCANDESK_DATA_DIR.
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  const dataDir = mkdtempSync(join(tmpdir(), 'scandesk-browser-'));
  const demo = spawnSync(
    process.execPath,
    [
      'bin/scandesk.js',
      'demo',
      '--data-dir',
      dataDir,
      '--scans',
      String(DEMO.scans),
      '--seed',
      String(DEMO.seed),
      '--now',
      DEMO.now,
    ],
    { encoding: 'utf8' },
  );
  if (demo.status !== 0) throw new Error(`scandesk demo failed:\n${demo.stderr}`);
  const server = spawn(
    process.execPath,
    ['bin/scandesk.js', 'serve', '--port', '0', '--data-dir', dataDir, '--log-level', 'warn'],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stderr = '';
  server.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`scandesk serve did not start in 30 s:\n${stderr}`)), 30_000);
    let stdout = '';
    server.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const match = /^listening on (http:\/\/\S+)$/m.exec(stdout);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    server.on('exit', (code) => reject(new Error(`scandesk serve exited with ${code}:\n${stderr}`)));
  });
  process.env.SCANDESK_URL = url;
  process.env.SCANDESK_TOKEN = readFileSync(join(dataDir, 'token'), 'utf8').trim();
  process.env.SCANDESK_DATA_DIR = dataDir;
  return async () => {
    const exited = new Promise((resolve) => server.once('exit', resolve));
    server.kill('SIGTERM');
    await exited;
    rmSync(dataDir, { recursive: true, force: true });
  };
}
