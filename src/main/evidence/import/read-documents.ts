import type { ErrorObject, ValidateFunction } from 'ajv';
import { Type, type Static, type TSchema } from 'typebox';
import { Id, Label, TokenCount, Timestamp } from '../../../shared/api/common';
import { ScanStatusSchema, SCAN_SOURCES, TimelineEntry, TokenBreakdown, Violation } from '../../../shared/api/scans';
import { Manifest } from '../../../shared/evidence-package';
import { compileOnFirstCall } from '../../http/compile-on-first-call';
import { detailsFromAjv, distinctErrors, makeAjv } from '../../http/validation';
import { invalidPackage, packageError } from './import-errors';

/**
 * Scan ids become parts of entry paths, URLs and download names: the id rule (src/shared/ids.ts)
 * keeps out anything that could not be addressed again, or would mean a directory.
 */
const ScanId = Id;

/**
 * The upstream get-scan shape `{id, created_at, tool, tokens, status, violations}`; our scan
 * object adds `action`, `organization_id` and `source`, which an import reads (action) or ignores.
 */
export const ScanDocument = Type.Object({
  id: ScanId,
  created_at: Timestamp,
  tool: Label,
  action: Type.Optional(Label),
  tokens: TokenCount,
  status: ScanStatusSchema,
  violations: Type.Array(Violation),
  // A scan object as GET /v1/scans/:id answers it lists only the first of many violations: taken
  // for all of them, it would import a scan without the rest.
  violations_truncated: Type.Optional(Type.Literal(false)),
  organization_id: Type.Optional(Type.Union([Id, Type.Null()])),
  source: Type.Optional(Type.Enum(SCAN_SOURCES)),
  // What GET /v1/scans/:id says of an imported scan's own package; a new import records its own.
  package_id: Type.Optional(Id),
  package_origin: Type.Optional(Type.String()),
});
export type ScanDocument = Static<typeof ScanDocument>;

/** The upstream get-evidence shape; in a format-1 package the timeline lives in timeline.jsonl. */
export const EvidenceDocument = Type.Object({
  scan_id: ScanId,
  evidence: Type.Object({
    request_count: Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER }),
    total_tokens: TokenCount,
    timeline: Type.Optional(Type.Array(TimelineEntry)),
    token_breakdown: Type.Optional(TokenBreakdown),
    violations: Type.Optional(Type.Array(Violation)),
  }),
});
export type EvidenceDocument = Static<typeof EvidenceDocument>;

const ajv = makeAjv(false);

const compile = <T extends TSchema>(schema: T) => compileOnFirstCall(() => ajv.compile<Static<T>>(schema));
const validators = {
  manifest: compile(Manifest),
  scan: compile(ScanDocument),
  evidence: compile(EvidenceDocument),
  timelineEntry: compile(TimelineEntry),
};

const MAX_MESSAGES = 20;

/** Token counts say what they need in one phrase instead of ajv's two ("must be integer", "must be >= 0"). */
function describe(all: ErrorObject[]): string[] {
  const seen = new Set<string>();
  const messages: string[] = [];
  // The same errors detailsFromAjv words, so that its details line up with them one for one.
  const errors = distinctErrors(all);
  const generic = detailsFromAjv(errors, 'document');
  errors.slice(0, MAX_MESSAGES).forEach((error, index) => {
    const schema = error.parentSchema as { type?: unknown; minimum?: unknown } | undefined;
    const detail = generic[index];
    if (!detail) return;
    const tokenLike =
      schema?.type === 'integer' && schema.minimum === 0 && ['type', 'minimum', 'maximum'].includes(error.keyword);
    const message = `${detail.field} ${tokenLike ? 'must be an integer >= 0' : detail.message}`;
    if (!seen.has(message)) {
      seen.add(message);
      messages.push(message);
    }
  });
  // detailsFromAjv ends with "and N more problems" past its cap.
  if (errors.length > MAX_MESSAGES) messages.push(generic.at(-1)!.message);
  return messages;
}

function check<T>(validate: ValidateFunction<T>, value: unknown, entry: string, what: string): T {
  if (!validate(value))
    throw packageError({ entry, context: `not ${what}`, problems: describe(validate.errors ?? []) });
  return value;
}

export const checkManifest = (value: unknown, entry: string): Manifest =>
  check(validators.manifest, value, entry, 'a format-1 manifest');
export const checkScanDocument = (value: unknown, entry: string): ScanDocument =>
  check(validators.scan, value, entry, 'a scan in the get-scan shape');
export const checkEvidenceDocument = (value: unknown, entry: string): EvidenceDocument =>
  check(validators.evidence, value, entry, 'evidence in the get-evidence shape');

/** A timeline entry's shape, `where` (`line 3`, `evidence.timeline.2`) naming it inside `entry`. */
export function checkTimelineEntry(value: unknown, entry: string, where: string): TimelineEntry {
  if (!validators.timelineEntry(value)) {
    throw packageError({ entry, at: where, problems: describe(validators.timelineEntry.errors ?? []) });
  }
  return value;
}

/** A whole JSON document; a BOM is tolerated, anything else that is not UTF-8 JSON is refused. */
export function parseJsonDocument(data: Buffer, entry: string): unknown {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(data);
  } catch {
    throw invalidPackage('not UTF-8', entry);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw invalidPackage(`not JSON (${(error as Error).message})`, entry);
  }
}
