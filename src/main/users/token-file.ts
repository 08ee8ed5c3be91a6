import { readFileSync } from 'node:fs';
import { tokenFile } from '../workspace/data-dir';
import { writeTokenFile } from '../workspace/workspace';

/** A data directory's token file, as token revocation and rotation must respect it. */
export interface TokenFile {
  /** Its token, trimmed; null when it is missing, empty or unreadable. */
  read(): string | null;
  /** Replaces its token (mode 0600). */
  write(token: string): void;
}

export function tokenFileOf(dataDir: string): TokenFile {
  return {
    read() {
      try {
        const token = readFileSync(tokenFile(dataDir), 'utf8').trim();
        return token === '' ? null : token;
      } catch {
        return null;
      }
    },
    write: (token) => writeTokenFile(dataDir, token),
  };
}
