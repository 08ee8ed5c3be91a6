import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../../src/cli/index';
import { EXIT } from '../../../src/cli/usage-error';

// `scandesk sync`'s argument handling, in process; the command against servers is in test/e2e/sync.

let out: string;
let err: string;
beforeEach(() => {
  out = '';
  err = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => ((out += String(chunk)), true));
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => ((err += String(chunk)), true));
});
afterEach(() => {
  vi.restoreAllMocks();
});

describe('scandesk sync', () => {
  it('takes one remote at most', async () => {
    expect(await main(['sync', 'team', 'other', '--token', 't'])).toBe(EXIT.usage);
    expect(err).toMatch(/^error: sync: one remote at most/);
    expect(out).toBe('');
  });

  it('has its help, with the exit codes', async () => {
    expect(await main(['help', 'sync'])).toBe(EXIT.ok);
    expect(out).toMatch(/^scandesk sync \[NAME\]/);
    expect(out).toContain('Exits 0 when every\n  remote is done, 1 when one is partial');
  });
});
