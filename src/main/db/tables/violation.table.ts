import type { Insertable, Selectable } from 'kysely';
import type { Severity } from '../../../shared/api/scans';

export interface ViolationTable {
  id: string;
  scan_id: string;
  /** Order of the violation within its scan. */
  seq: number;
  rule: string;
  severity: Severity;
  message: string;
  timeline_index: number | null;
}

export type ViolationRow = Selectable<ViolationTable>;
export type NewViolation = Insertable<ViolationTable>;
