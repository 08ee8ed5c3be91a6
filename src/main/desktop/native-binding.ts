import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

// better-sqlite3 is loaded from an Electron-ABI build made by `scripts/build-native.mjs`, never
// from the package's own binary: that one stays built for Node, so the CLI and the tests never
// share (and never break) the desktop app's binary. No electron import here, so that Node tests
// can exercise the lookup: Electron is recognised by what it adds to `process`.

/** Where the packaged app finds the binding: electron-builder's extraResources put it there. */
export const PACKAGED_BINDING = join('native', 'better_sqlite3.node');
/** Where `scripts/build-native.mjs` writes the binding in a checkout. */
export const DEV_BINDING = join('.native', 'better_sqlite3-electron.node');

export interface NativeBindingEnvironment {
  /** `process.resourcesPath`: set by Electron only. */
  resourcesPath?: string | undefined;
  /** `process.versions.electron`: set by Electron only. */
  electronVersion?: string | undefined;
  /** The checkout, for `.native/`. */
  projectRoot: string;
  exists(path: string): boolean;
}

// The desktop app runs only from its bundle, out/main/index.js (electron-vite builds one in dev
// too), two levels under the checkout.
const PROJECT_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

function currentEnvironment(): NativeBindingEnvironment {
  const electronProcess = process as NodeJS.Process & { resourcesPath?: string };
  return {
    resourcesPath: electronProcess.resourcesPath,
    electronVersion: process.versions.electron,
    projectRoot: PROJECT_ROOT,
    exists: existsSync,
  };
}

/**
 * The path to pass as better-sqlite3's `nativeBinding`: the packaged app's resource, else in a
 * checkout run by Electron the `.native/` build; undefined under plain Node, which uses the
 * package's own binary.
 */
export function resolveNativeBinding(environment: NativeBindingEnvironment = currentEnvironment()): string | undefined {
  const { resourcesPath, electronVersion, projectRoot, exists } = environment;
  if (resourcesPath) {
    const packaged = join(resourcesPath, PACKAGED_BINDING);
    if (exists(packaged)) return packaged;
  }
  if (electronVersion) {
    const dev = join(projectRoot, DEV_BINDING);
    if (exists(dev)) return dev;
  }
  return undefined;
}
