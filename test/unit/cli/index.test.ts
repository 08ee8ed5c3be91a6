import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../../src/cli/index';
import { EXIT } from '../../../src/cli/usage-error';

// In process, not spawned: these are decisions of the argument handling, and a spawn per case
// would cost the suite seconds for nothing more.

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

describe('main', () => {
  it('help COMMAND prints that command only', async () => {
    expect(await main(['help', 'scans'])).toBe(EXIT.ok);
    expect(out).toMatch(/^scandesk scans list /);
    expect(out).not.toContain('scandesk serve');
    expect(out).not.toContain('scandesk orgs');
    expect(err).toBe('');
  });

  it('help with an unknown command is a usage error', async () => {
    expect(await main(['help', 'frob'])).toBe(EXIT.usage);
    expect(err).toBe('error: unknown command "frob"; run `scandesk help`\n');
    expect(out).toBe('');
  });

  it('an unknown option is named, with the help to read', async () => {
    expect(await main(['scans', 'list', '--bogus'])).toBe(EXIT.usage);
    expect(err).toBe('error: unknown option --bogus (see scandesk scans list --help)\n');
  });

  it('a negative count is refused by what the option expects, not as ambiguous', async () => {
    expect(await main(['submit', '--tool', 't', '--action', 'a', '--tokens', '-5'])).toBe(EXIT.usage);
    expect(err).toBe('error: --tokens: expected a non-negative integer, got -5\n');
  });
});
