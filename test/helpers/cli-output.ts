import { createServer } from 'node:net';
import { expect } from 'vitest';
import { cleanupProcesses, type CliResult, type ServeProcess } from './serve-process';

/** The non-empty lines of a command's output. */
export function lines(text: string): string[] {
  return text.split('\n').filter((line) => line !== '');
}

export function expectExit(result: CliResult, code: number): void {
  expect(result.code, `stdout:\n${result.stdout}\nstderr:\n${result.stderr}`).toBe(code);
}

/** A usage error: exit 2, the reason on the first stderr line, nothing on stdout. */
export function expectUsage(result: CliResult, message: RegExp): void {
  expectExit(result, 2);
  expect(result.stdout).toBe('');
  expect(lines(result.stderr)[0]).toMatch(message);
}

/**
 * For `afterAll`: stops the servers a suite started (those it got to start), each expected to exit
 * 0, then kills and removes whatever else is left even when one did not.
 */
export async function stopServers(...servers: (ServeProcess | undefined)[]): Promise<void> {
  try {
    for (const server of servers) if (server) expect(await server.stop()).toBe(0);
  } finally {
    await cleanupProcesses();
  }
}

/** A port nobody listens on: bound by us, then released. */
export async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const address = probe.address();
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
}
