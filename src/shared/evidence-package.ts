import { Type, type Static } from 'typebox';
import { Id } from './api/common';

/** Evidence package format 1 (docs/contract/package-format.md#layout). */
export const PACKAGE_FORMAT = 'scandesk.evidence';
export const PACKAGE_VERSION = 1;
export const MANIFEST_PATH = 'manifest.json';

export const packagePaths = (scanId: string) =>
  ({
    scan: `scans/${scanId}/scan.json`,
    evidence: `scans/${scanId}/evidence.json`,
    timeline: `scans/${scanId}/timeline.jsonl`,
  }) as const;

export const ManifestFile = Type.Object({
  path: Type.String({ minLength: 1 }),
  bytes: Type.Integer({ minimum: 0 }),
  sha256: Type.String({ pattern: '^[0-9a-f]{64}$' }),
});
export type ManifestFile = Static<typeof ManifestFile>;

export const Manifest = Type.Object({
  format: Type.Literal(PACKAGE_FORMAT),
  version: Type.Literal(PACKAGE_VERSION),
  exported_at: Type.String(),
  generator: Type.String(),
  scans: Type.Array(Id),
  files: Type.Array(ManifestFile),
});
export type Manifest = Static<typeof Manifest>;
