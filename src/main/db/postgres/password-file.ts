import { readFileSync } from 'node:fs';

export class PasswordFileError extends Error {
  override readonly name = 'PasswordFileError';
}

/**
 * The password kept in `file`: its first line, without the line break (what `echo pw > file` and
 * secret mounts write). Read when the store is opened, so that it never appears on a command line
 * or in the environment. Refused when unreadable or empty, naming the file but never its content.
 */
export function readPasswordFile(file: string): string {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new PasswordFileError(
      `cannot read the database password file ${file} (${(error as NodeJS.ErrnoException).code ?? String(error)})`,
    );
  }
  const password = text.split(/\r?\n/, 1)[0]!;
  if (password === '') throw new PasswordFileError(`the database password file ${file} is empty`);
  return password;
}
