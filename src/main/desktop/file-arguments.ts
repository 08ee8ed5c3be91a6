import { statSync } from 'node:fs';
import { extname, isAbsolute, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

// Which arguments of a launch are evidence files to import. Pure (the file check is injected),
// apart from Electron, so that unit tests cover the argv shapes of every platform.

export interface ArgvContext {
  /** The directory the launch ran in: relative paths are relative to it, not to ours. */
  cwd: string;
  isFile?: (path: string) => boolean;
}

const isExistingFile = (path: string): boolean => {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
};

/**
 * One argument or OS-supplied path as an absolute .zip path, or null. Linux file managers may
 * hand over file:// URLs (%U in the .desktop file); other schemes are never files.
 */
export function evidenceFileFromArgument(argument: string, context: ArgvContext): string | null {
  let path = argument;
  if (/^file:\/\//i.test(path)) {
    try {
      path = fileURLToPath(path);
    } catch {
      return null;
    }
  } else if (/^[a-z][a-z\d+.-]+:/i.test(path) && !/^[a-z]:[\\/]/i.test(path)) {
    return null;
  }
  if (extname(path).toLowerCase() !== '.zip') return null;
  const absolute = isAbsolute(path) ? path : resolve(context.cwd, path);
  return (context.isFile ?? isExistingFile)(absolute) ? absolute : null;
}

/**
 * The evidence files named on a command line: argv[0] is the executable and is skipped; flags
 * (`--inspect=9229`, `--no-sandbox`, macOS's `-psn_0_123`) are ignored, as is the app path of an
 * unpackaged launch (`electron .`) and anything that is not an existing .zip file. After `--`
 * every argument is a path, even one starting with a dash.
 */
export function evidenceFilesFromArgv(argv: readonly string[], context: ArgvContext): string[] {
  const files: string[] = [];
  let flagsEnded = false;
  for (const argument of argv.slice(1)) {
    if (!flagsEnded && argument === '--') {
      flagsEnded = true;
      continue;
    }
    if (!flagsEnded && argument.startsWith('-')) continue;
    const file = evidenceFileFromArgument(argument, context);
    if (file !== null && !files.includes(file)) files.push(file);
  }
  return files;
}
