import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import type { DesktopImportOutcome } from '../../../shared/desktop-api';
import type { Db } from '../../db/index';
import { importEvidencePackage } from './package-import.service';
import { packageTooLarge } from './import-errors';
import { DEFAULT_IMPORT_LIMITS, type ImportLimits } from './import-limits';
import { DomainError } from '../../domain-error';

// The desktop shell's imports (dialog, command line, OS open-file) call the same service as
// POST /v1/evidence/imports, with the same limits, so a file is accepted or refused alike; only
// the HTTP spooling is skipped, since the file is already on disk. Plain Node: no Electron.

/** One file as the API would answer it: its result, or the refusal with the API's reason. */
export async function importEvidenceFile(
  db: Db,
  userId: string,
  path: string,
  limits: ImportLimits = DEFAULT_IMPORT_LIMITS,
): Promise<DesktopImportOutcome> {
  const name = basename(path);
  let size = 0;
  try {
    const info = await stat(path);
    if (!info.isFile()) throw new Error('not a file');
    size = info.size;
    if (size > limits.bodyBytes) {
      // The API refuses such a body before reading it; the same code and words here.
      throw packageTooLarge(limits.bodyBytes);
    }
    const result = await importEvidencePackage(db, userId, path, limits);
    return { name, size, status: 'imported', result };
  } catch (error) {
    if (error instanceof DomainError) {
      return { name, size, status: 'refused', error: { message: error.message, details: error.details } };
    }
    const message = error instanceof Error ? error.message : String(error);
    return { name, size, status: 'refused', error: { message: `cannot read ${name}: ${message}`, details: [] } };
  }
}

/** One after another, as the renderer uploads them: a big package must not starve the others. */
export async function importEvidenceFiles(
  db: Db,
  userId: string,
  paths: readonly string[],
  limits: ImportLimits = DEFAULT_IMPORT_LIMITS,
): Promise<DesktopImportOutcome[]> {
  const outcomes: DesktopImportOutcome[] = [];
  for (const path of paths) outcomes.push(await importEvidenceFile(db, userId, path, limits));
  return outcomes;
}

/** The outcomes as the lines of a native message box, for when no window can show them. */
export function describeOutcomes(outcomes: readonly DesktopImportOutcome[]): string {
  return outcomes
    .map((outcome) => {
      if (outcome.status === 'refused') return `${outcome.name}: refused — ${outcome.error.message}`;
      const { imported, unchanged } = outcome.result;
      return `${outcome.name}: imported ${imported.length}, unchanged ${unchanged.length}`;
    })
    .join('\n');
}
