import { parseArgs } from 'node:util';
import { describe, expect, it } from 'vitest';
import { commandPath, isParseArgsError, joinNegativeValues, parseArgsMessage } from '../../../src/cli/arg-errors';

const OPTIONS = { tokens: { type: 'string' }, json: { type: 'boolean' }, out: { type: 'string', short: 'o' } } as const;

/** The message for what node's own parser throws on `args`: its wording is what gets translated. */
function messageFor(args: string[], options: { allowPositionals?: boolean } = {}): string {
  try {
    parseArgs({ args: joinNegativeValues(args), options: OPTIONS, allowPositionals: options.allowPositionals ?? true });
  } catch (error) {
    if (!isParseArgsError(error)) throw error;
    return parseArgsMessage(error, 'submit');
  }
  throw new Error(`parseArgs accepted ${args.join(' ')}`);
}

describe('parseArgsMessage', () => {
  it('names an unknown option and where to read the usage, with no quoting to balance', () => {
    expect(messageFor(['--bogus'])).toBe('unknown option --bogus (see scandesk submit --help)');
    expect(messageFor(['-x'])).toBe('unknown option -x (see scandesk submit --help)');
  });

  it('says a value is missing, or that a flag takes none', () => {
    expect(messageFor(['--tokens'])).toBe('--tokens needs a value (see scandesk submit --help)');
    expect(messageFor(['--json=yes'])).toBe('--json takes no value (see scandesk submit --help)');
    expect(messageFor(['--tokens', '--json'])).toBe(
      '--tokens needs a value; to give one that starts with "-", write --tokens=VALUE',
    );
    expect(messageFor(['stray'], { allowPositionals: false })).toBe(
      'unexpected argument "stray" (see scandesk submit --help)',
    );
  });

  it('never prints more than one line', () => {
    for (const args of [['--bogus'], ['--tokens', '--json'], ['--tokens']]) {
      expect(messageFor(args)).not.toContain('\n');
    }
  });
});

describe('joinNegativeValues', () => {
  it('gives a negative number to the option before it, for the option to judge', () => {
    expect(joinNegativeValues(['--tokens', '-5', '--json'])).toEqual(['--tokens=-5', '--json']);
    expect(joinNegativeValues(['--tokens', '-1.5'])).toEqual(['--tokens=-1.5']);
    const { values } = parseArgs({ args: joinNegativeValues(['--tokens', '-5']), options: OPTIONS });
    expect(values.tokens).toBe('-5');
  });

  it('leaves options, short flags, values already joined and anything after -- alone', () => {
    expect(joinNegativeValues(['--tokens', '--json'])).toEqual(['--tokens', '--json']);
    expect(joinNegativeValues(['-o', '-5'])).toEqual(['-o', '-5']);
    expect(joinNegativeValues(['--tokens=1', '-5'])).toEqual(['--tokens=1', '-5']);
    expect(joinNegativeValues(['--', '--tokens', '-5'])).toEqual(['--', '--tokens', '-5']);
    expect(joinNegativeValues(['--tokens', '-x5'])).toEqual(['--tokens', '-x5']);
  });
});

describe('commandPath', () => {
  const help = 'scandesk scans list [--since DATE]\nscandesk scans get SCAN_ID';
  it('adds the subcommand the help lists, not an argument that follows the command', () => {
    expect(commandPath('scans', ['list', '--bogus'], help)).toBe('scans list');
    expect(commandPath('scans', ['--bogus'], help)).toBe('scans');
    expect(commandPath('evidence', ['scan_1', '--bogus'], 'scandesk evidence SCAN_ID')).toBe('evidence');
    expect(commandPath('scans', ['frob'], help)).toBe('scans');
  });
});
