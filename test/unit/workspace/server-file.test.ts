import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resolveClientOptions } from '../../../src/cli/client';
import {
  isProcessAlive,
  liveServerUrl,
  readServerInfo,
  removeServerInfo,
  serverInfoFile,
  writeServerInfo,
} from '../../../src/main/workspace/server-file';

// A pid that no process has: above Linux's pid_max (4194304) and macOS's 99999.
const DEAD_PID = 2 ** 30;

describe('<data-dir>/server.json: where the CLI finds the desktop app', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'scandesk-serverinfo-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('is written owner-only and read back while the process lives', () => {
    writeServerInfo(dir, { url: 'http://127.0.0.1:51234', pid: process.pid });
    expect(readServerInfo(dir)).toEqual({ url: 'http://127.0.0.1:51234', pid: process.pid });
    if (process.platform !== 'win32') expect(statSync(serverInfoFile(dir)).mode & 0o777).toBe(0o600);
    expect(liveServerUrl(dir)).toBe('http://127.0.0.1:51234');
  });

  it('is ignored when its process is dead, missing or malformed', () => {
    expect(isProcessAlive(process.pid)).toBe(true);
    expect(isProcessAlive(DEAD_PID)).toBe(false);
    writeServerInfo(dir, { url: 'http://127.0.0.1:51234', pid: DEAD_PID });
    expect(liveServerUrl(dir)).toBeNull();
    rmSync(serverInfoFile(dir));
    expect(liveServerUrl(dir)).toBeNull();
    for (const text of ['{', '{"url":"file:///x","pid":1}', '{"url":"http://127.0.0.1:1","pid":"1"}']) {
      writeFileSync(serverInfoFile(dir), text);
      expect(liveServerUrl(dir, () => true)).toBeNull();
    }
  });

  it('is removed at quit only by the process that wrote it', () => {
    writeServerInfo(dir, { url: 'http://127.0.0.1:51234', pid: 4242 });
    removeServerInfo(dir, process.pid);
    expect(readServerInfo(dir)).not.toBeNull();
    removeServerInfo(dir, 4242);
    expect(readServerInfo(dir)).toBeNull();
  });

  it("becomes the CLI's default URL; --url and SCANDESK_URL still win", () => {
    const env = { SCANDESK_DATA_DIR: dir, SCANDESK_TOKEN: 'sdt_x' };
    expect(resolveClientOptions({}, env).url).toBe('http://127.0.0.1:4790');
    writeServerInfo(dir, { url: 'http://127.0.0.1:51234', pid: process.pid });
    expect(resolveClientOptions({}, env).url).toBe('http://127.0.0.1:51234');
    expect(resolveClientOptions({}, { ...env, SCANDESK_URL: 'http://127.0.0.1:1' }).url).toBe('http://127.0.0.1:1');
    expect(resolveClientOptions({ url: 'http://127.0.0.1:2' }, env).url).toBe('http://127.0.0.1:2');
    writeServerInfo(dir, { url: 'http://127.0.0.1:51234', pid: DEAD_PID });
    expect(resolveClientOptions({}, env).url).toBe('http://127.0.0.1:4790');
  });
});
