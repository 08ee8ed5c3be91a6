import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Executor } from '../../db/index';
import { DomainError } from '../../domain-error';
import {
  importPulledPackage,
  type ExtraDocument,
  type PulledImportResult,
  type PulledPlacement,
} from '../../evidence/import/pulled-import.service';
import type { SyncContext } from '../sync-context';

// Storing what a pull downloaded, the same way for both kinds of remote: a package file through
// the pulled import (all or nothing, the same checks as an import), counted into the run's tally.

let fileNumber = 0;

/** A fresh file name in the run's folder. */
export const packageFile = (ctx: SyncContext): string => join(ctx.workDir, `package-${++fileNumber}.zip`);

export interface StoreOptions {
  closing?: (trx: Executor) => Promise<void>;
  extraDocuments?: readonly ExtraDocument[];
}

/** Stores one downloaded package and removes its file; counts what it did. */
export async function storePackage(
  ctx: SyncContext,
  file: string,
  placement: PulledPlacement,
  options: StoreOptions = {},
): Promise<PulledImportResult> {
  try {
    return countStored(ctx, await importPulledPackage(ctx.db, file, ctx.limits, placement, options));
  } finally {
    await rm(file, { force: true });
  }
}

/** Counts what a store of pulled scans did into the run's tally. */
export function countStored(ctx: SyncContext, result: PulledImportResult): PulledImportResult {
  ctx.tally.pulled.new += result.new.length;
  ctx.tally.pulled.changed += result.changed.length;
  ctx.tally.pulled.unchanged += result.unchanged.length;
  ctx.tally.echoed += result.echoed.length;
  return result;
}

/** A package the import's checks refused (hostile, broken, or ids that collide with local ones). */
export const isRefusedPackage = (error: unknown): error is DomainError =>
  error instanceof DomainError && (error.code === 'invalid_package' || error.code === 'conflict');

/** What a refusal says, details included (the entry or field that failed), in one line. */
export function refusalText(error: DomainError): string {
  const details = error.details.map((detail) => detail.message).filter((message) => message !== '');
  return details.length === 0 ? error.message : `${error.message} (${details.slice(0, 3).join('; ')})`;
}
