import { describe, expect, it } from 'vitest';
import {
  cliSnippet,
  maskedCliSnippet,
  maskToken,
  shellQuote,
} from '../../src/renderer/src/features/settings/cli-snippet';

describe('settings CLI snippet', () => {
  it('writes the export line, quoting only when needed', () => {
    expect(cliSnippet('http://127.0.0.1:4790', 'sdt_abc-DEF_123')).toBe(
      'export SCANDESK_URL=http://127.0.0.1:4790 SCANDESK_TOKEN=sdt_abc-DEF_123',
    );
    expect(cliSnippet('http://[::1]:4790', null)).toBe(
      "export SCANDESK_URL='http://[::1]:4790' SCANDESK_TOKEN=<your-token>",
    );
    expect(shellQuote("it's $HOME")).toBe(`'it'\\''s $HOME'`);
  });

  it('masks all but the prefix', () => {
    expect(maskToken('sdt_0123456789')).toBe('sdt_••••••••••');
    expect(maskToken('short')).toBe('•••••');
    expect(maskedCliSnippet('http://127.0.0.1:1', 'sdt_01234')).toBe(
      'export SCANDESK_URL=http://127.0.0.1:1 SCANDESK_TOKEN=sdt_•••••',
    );
    expect(maskToken(`sdt_${'x'.repeat(60)}`)).toHaveLength(28);
  });
});
