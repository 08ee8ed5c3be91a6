import { describe, expect, it } from 'vitest';
import { cliSnippet, shellQuote } from '../../../../src/renderer/src/features/settings/cli-snippet';

describe('settings CLI snippet', () => {
  it('names the URL and the data directory, never a token, quoting only when needed', () => {
    expect(cliSnippet('http://127.0.0.1:4790', '/home/ann/.config/Scandesk')).toBe(
      'export SCANDESK_URL=http://127.0.0.1:4790 SCANDESK_DATA_DIR=/home/ann/.config/Scandesk',
    );
    expect(cliSnippet('http://[::1]:4790', "/tmp/it's here")).toBe(
      `export SCANDESK_URL='http://[::1]:4790' SCANDESK_DATA_DIR='/tmp/it'\\''s here'`,
    );
    expect(cliSnippet('http://127.0.0.1:4790', null)).toBe(
      'export SCANDESK_URL=http://127.0.0.1:4790 SCANDESK_TOKEN=<your-token>',
    );
    expect(shellQuote("it's $HOME")).toBe(`'it'\\''s $HOME'`);
  });
});
