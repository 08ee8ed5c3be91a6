import { getConfig, validateConfiguration } from 'app-builder-lib/out/util/config/config.js';
import { DebugLogger } from 'builder-util';
import type { Configuration, FileSet, TargetConfiguration } from 'electron-builder';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEV_BINDING, PACKAGED_BINDING } from '../../src/main/desktop/native-binding';

// Packaging cannot run here (electron-builder downloads Electron for each target), so this checks
// the configuration the way electron-builder reads it: its own loader and its own schema.
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

let config: Configuration;

beforeAll(async () => {
  config = await getConfig(ROOT, null, null);
});

function targetNames(target: unknown): string[] {
  const list = Array.isArray(target) ? (target as unknown[]) : [target];
  return list.map((entry) => (typeof entry === 'string' ? entry : (entry as TargetConfiguration).target));
}

function patterns(files: Configuration['files']): string[] {
  const list = Array.isArray(files) ? files : files == null ? [] : [files];
  return list.flatMap((entry: string | FileSet) =>
    typeof entry === 'string' ? [entry] : [...(entry.filter === undefined ? [] : [entry.filter].flat())],
  );
}

describe('electron-builder configuration', () => {
  it('passes electron-builder’s schema', async () => {
    await expect(validateConfiguration(config, new DebugLogger(false))).resolves.toBeUndefined();
  });

  it('names the app', () => {
    expect(config.appId).toBe('dev.scandesk.desktop');
    expect(config.productName).toBe('Scandesk');
  });

  it('targets AppImage and deb on Linux, dmg on macOS, NSIS on Windows', () => {
    expect(targetNames(config.linux?.target).sort()).toEqual(['AppImage', 'deb']);
    expect(targetNames(config.mac?.target)).toEqual(['dmg']);
    expect(targetNames(config.win?.target)).toEqual(['nsis']);
  });

  it('packs the built bundles and package.json, and the main entry is among them', () => {
    const files = patterns(config.files);
    expect(files).toContain('out/**');
    expect(files).toContain('package.json');
    const pkg = JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8')) as { main: string };
    expect(pkg.main).toMatch(/^out\//);
  });

  it('ships the Electron build of better-sqlite3 where the app looks for it', () => {
    const resources = Array.isArray(config.extraResources) ? config.extraResources : [];
    expect(resources).toContainEqual({ from: DEV_BINDING, to: PACKAGED_BINDING.replaceAll('\\', '/') });
    // The Node binary in node_modules must survive packaging for the CLI and the tests.
    expect(config.npmRebuild).toBe(false);
  });

  it('registers .zip as a Scandesk evidence package it can view', () => {
    const associations = [config.fileAssociations ?? []].flat();
    expect(associations).toContainEqual(
      expect.objectContaining({ ext: 'zip', name: 'Scandesk evidence package', role: 'Viewer' }),
    );
  });

  it('has the icons it points at', () => {
    const dir = config.directories?.buildResources ?? 'build';
    for (const icon of [config.linux?.icon, config.mac?.icon, config.win?.icon]) {
      expect(icon).toBeTypeOf('string');
      expect(existsSync(`${ROOT}${dir}/${icon}`)).toBe(true);
    }
    // electron-builder needs at least 512x512 to derive the macOS .icns.
    const png = readFileSync(`${ROOT}${dir}/icon.png`);
    expect(png.readUInt32BE(16)).toBeGreaterThanOrEqual(512);
    expect(png.readUInt32BE(20)).toBeGreaterThanOrEqual(512);
  });

  it('flips the Electron fuses that let a local process inject code into the app', () => {
    expect(config.electronFuses).toEqual({
      runAsNode: false,
      enableCookieEncryption: true,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      grantFileProtocolExtraPrivileges: false,
    });
    // onlyLoadAppFromAsar needs the app in an asar archive, electron-builder's default.
    expect(config.asar ?? true).toBe(true);
  });
});
