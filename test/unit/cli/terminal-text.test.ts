import { describe, expect, it } from 'vitest';
import { fields, table } from '../../../src/cli/output';
import { progressLine, importResultText } from '../../../src/cli/package-format';
import { breakdownText, scanBlock, violationsBlock } from '../../../src/cli/scan-format';
import { terminalJson, terminalLines, terminalSafe } from '../../../src/cli/terminal-text';
import type { Scan } from '../../../src/shared/api/scans';
import { C1_CLEAR, OSC52, rawControls } from '../../helpers/terminal-controls';

describe('terminalSafe', () => {
  it('writes every control character and bidirectional override as a \\u escape', () => {
    expect(terminalSafe(`rule${OSC52}`)).toBe('rule\\u001b]52;c;Y3VybCBldmlsLmV4YW1wbGUgfCBzaA==\\u0007');
    expect(terminalSafe(C1_CLEAR)).toBe('\\u009b2J');
    expect(terminalSafe('a\u007fb\u0000c')).toBe('a\\u007fb\\u0000c');
    expect(terminalSafe('invoice\u202egpj.exe')).toBe('invoice\\u202egpj.exe');
    expect(terminalSafe('\u2066x\u2069')).toBe('\\u2066x\\u2069');
  });

  it('keeps one value on one line unless told to keep line breaks', () => {
    expect(terminalSafe('one\nerror: forged\r\t')).toBe('one\\u000aerror: forged\\u000d\\u0009');
    expect(terminalLines('one\ntwo\u001b[2K\n')).toBe('one\ntwo\\u001b[2K\n');
  });

  it('leaves text without such characters as it is', () => {
    for (const text of ['', 'Acme Corp', 'Ünïcødé 名前 🚀', 'tab-free \\u001b as typed', 'a\u200bb\u00a0c']) {
      expect(terminalSafe(text)).toBe(text);
    }
  });

  it('no character survives raw, over every code unit of the BMP', () => {
    const all = Array.from({ length: 0xd800 }, (_, code) => String.fromCharCode(code)).join('');
    expect(rawControls(terminalSafe(all))).toEqual([]);
  });
});

describe('terminalJson', () => {
  it('escapes DEL, C1 and overrides as JSON.stringify does not, and parses back to the same value', () => {
    const value = { rule: `x${OSC52}`, message: `${C1_CLEAR}\u007f\u202e`, nested: [{ 'key\u009d': 1 }] };
    const text = terminalJson(value);
    expect(rawControls(text)).toEqual([]);
    expect(JSON.parse(text)).toEqual(value);
    expect(text).toContain('\\u009b2J\\u007f\\u202e');
  });
});

describe('what the CLI prints from server values', () => {
  // Cast: the fields printed are all here; the rest of a Scan does not matter to these blocks.
  const scan = {
    id: 'scan_1',
    created_at: '2026-11-21T04:16:15.470Z',
    tool: `cursor${OSC52}`,
    action: 'chat\nstatus    completed',
    tokens: 5,
    status: 'completed',
    organization_id: null,
    source: 'imported',
    violations: [
      { id: 'vio_1', rule: `evil${OSC52}`, severity: 'high', message: `msg${C1_CLEAR}\u202e`, timeline_index: null },
    ],
  } as Scan;

  it.each([
    ['table cells', () => table(['A', 'B'], [[OSC52, `x${C1_CLEAR}`]])],
    ['fields', () => fields([['tool', OSC52]])],
    ['scan blocks', () => scanBlock(scan)],
    ['violation tables', () => violationsBlock(scan.violations)],
    ['breakdown keys', () => breakdownText({ [`input${OSC52}`]: 3 })],
    ['a progress bar label', () => progressLine(`pkg${OSC52}.zip`, 1, 2)],
    [
      'import refusals',
      () =>
        importResultText({
          file: `f${OSC52}.zip`,
          status: 'refused',
          error: {
            status: 400,
            code: 'invalid_package',
            message: `bad ${OSC52}`,
            details: [{ entry: 'x\n', message: C1_CLEAR }],
          },
        }),
    ],
  ])('%s carry no raw control character', (_, render) => {
    expect(rawControls(render())).toEqual([]);
  });

  it('a value with a line break cannot add a line', () => {
    const block = scanBlock(scan);
    expect(block.split('\n')).toHaveLength(8);
    expect(block).toContain('action        chat\\u000astatus    completed');
  });
});
