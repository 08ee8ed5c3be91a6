import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultDataDir } from '../../../src/main/workspace/data-dir';
import { redactUrl } from '../../../src/main/server/logging';

describe('defaultDataDir', () => {
  it('prefers SCANDESK_DATA_DIR', () => {
    expect(defaultDataDir({ SCANDESK_DATA_DIR: '/data' }, 'linux', '/home/u')).toBe('/data');
  });
  it("uses Electron's userData folder of each platform", () => {
    expect(defaultDataDir({}, 'linux', '/home/u')).toBe(join('/home/u', '.config', 'Scandesk'));
    expect(defaultDataDir({ XDG_CONFIG_HOME: '/xdg' }, 'linux', '/home/u')).toBe(join('/xdg', 'Scandesk'));
    expect(defaultDataDir({}, 'darwin', '/Users/u')).toBe(
      join('/Users/u', 'Library', 'Application Support', 'Scandesk'),
    );
    expect(defaultDataDir({ APPDATA: 'C:\\AppData' }, 'win32', 'C:\\Users\\u')).toBe(join('C:\\AppData', 'Scandesk'));
  });
});

describe('redactUrl', () => {
  it('hides the token query parameter wherever it is', () => {
    expect(redactUrl('/?token=sdt_secret')).toBe('/?token=[redacted]');
    expect(redactUrl('/x?a=1&token=sdt_secret&b=2')).toBe('/x?a=1&token=[redacted]&b=2');
    expect(redactUrl('/v1/scans?limit=5')).toBe('/v1/scans?limit=5');
  });

  it('hides it however the name is encoded, as the server decodes it', () => {
    expect(redactUrl('/?%74oken=sdt_secret')).toBe('/?%74oken=[redacted]');
    expect(redactUrl('/?a=1&%74%6F%6B%65%6E=sdt_secret#top')).toBe('/?a=1&%74%6F%6B%65%6E=[redacted]#top');
    expect(redactUrl('/?%zz=1&token')).toBe('/?%zz=1&token=[redacted]');
  });
});
