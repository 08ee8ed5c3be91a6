import { DomainError } from '../../domain-error';
import type { JsonlLineError } from '../jsonl/line-splitter';

// The errors of a refused package: above all the one 400 invalid_package
// (docs/contract/package-format.md#checks), built here for every stage: the reader, the
// documents, the checks and the adapters.

/** What a refusal says: its problems, and where they are. */
export interface PackageProblem {
  /** The archive entry the problems are about; none for the package as a whole. */
  entry?: string | undefined;
  /**
   * A place inside the entry (`line 3`, `evidence.timeline.2`): the message then names it after
   * the entry (`timeline.jsonl line 3: …`), and each detail starts with it.
   */
  at?: string | undefined;
  /** What the message says before the first problem (`not a format-1 manifest`); not in the details. */
  context?: string | undefined;
  /** One detail each; the first is the message's. */
  problems: readonly string[];
}

/** The refusal: a message naming the entry (and place) and the first problem, a detail per problem. */
export function packageError({ entry, at, context, problems }: PackageProblem): DomainError {
  const where = entry === undefined ? undefined : at === undefined ? entry : `${entry} ${at}`;
  const first = `${context === undefined ? '' : `${context}: `}${problems[0] ?? 'invalid'}`;
  const details = problems.map((problem) => {
    const message = at === undefined ? problem : `${at}: ${problem}`;
    return entry === undefined ? { message } : { entry, message };
  });
  return new DomainError('invalid_package', where === undefined ? first : `${where}: ${first}`, details);
}

/** One problem of `entry`, or of the package as a whole. */
export const invalidPackage = (reason: string, entry?: string): DomainError =>
  packageError({ entry, problems: [reason] });

/** Anything a read can throw, as the one error of a bad package, naming the entry when known. */
export function asPackageError(error: unknown, entry?: string): DomainError {
  if (error instanceof DomainError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return invalidPackage(`cannot be read: ${message}`, entry);
}

/** A body over the limit, refused alike by the API (413 before it is read) and the desktop's imports. */
export const packageTooLarge = (limit: number): DomainError =>
  new DomainError('payload_too_large', `the evidence package is larger than ${limit} bytes`, [
    { message: `limit is ${limit} bytes` },
  ]);

/** A line of `name` that cannot be a line, as the refusal of the package. */
export const lineError = (error: JsonlLineError, name: string): DomainError =>
  packageError({ entry: name, at: `line ${error.line}`, problems: [error.reason] });
