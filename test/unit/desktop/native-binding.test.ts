import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEV_BINDING, PACKAGED_BINDING, resolveNativeBinding } from '../../../src/main/desktop/native-binding';

const ROOT = join('/', 'checkout');
const RESOURCES = join('/', 'opt', 'Scandesk', 'resources');
const packaged = join(RESOURCES, PACKAGED_BINDING);
const dev = join(ROOT, DEV_BINDING);

function existing(...paths: string[]): (path: string) => boolean {
  return (path) => paths.includes(path);
}

describe('resolveNativeBinding', () => {
  it('uses the packaged resource inside a packaged app', () => {
    expect(
      resolveNativeBinding({
        resourcesPath: RESOURCES,
        electronVersion: '45.4.1',
        projectRoot: ROOT,
        exists: existing(packaged, dev),
      }),
    ).toBe(packaged);
  });

  it('uses the .native build when Electron runs from a checkout', () => {
    // Electron run from node_modules has a resourcesPath too, without our binding in it.
    expect(
      resolveNativeBinding({
        resourcesPath: join(ROOT, 'node_modules', 'electron', 'dist', 'resources'),
        electronVersion: '45.4.1',
        projectRoot: ROOT,
        exists: existing(dev),
      }),
    ).toBe(dev);
  });

  it('leaves plain Node on the package binary even when a .native build exists', () => {
    expect(resolveNativeBinding({ projectRoot: ROOT, exists: existing(dev) })).toBeUndefined();
  });

  it('leaves Electron on the package binary when no Electron build exists', () => {
    expect(
      resolveNativeBinding({
        resourcesPath: RESOURCES,
        electronVersion: '45.4.1',
        projectRoot: ROOT,
        exists: existing(),
      }),
    ).toBeUndefined();
  });

  it('is undefined in this Node process', () => {
    expect(process.versions.electron).toBeUndefined();
    expect(resolveNativeBinding()).toBeUndefined();
  });
});
