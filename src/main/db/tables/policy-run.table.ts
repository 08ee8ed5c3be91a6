import type { Insertable } from 'kysely';
import type { Severity } from '../../../shared/api/scans';

/** An organization's running policy preview or re-evaluation: at most one at a time. */
export interface PolicyRunTable {
  organization_id: string;
  run_id: string;
  /** Epoch milliseconds of the run's last step: a claim that stopped beating may be taken over. */
  heartbeat_at: number;
}

/** A scan whose violations a running re-evaluation will replace, with its new counts. */
export interface PolicyStagedScanTable {
  run_id: string;
  scan_id: string;
  violation_count: number;
  /** As scans.worst_severity. */
  worst_severity: number;
}

/** A violation a running re-evaluation will store, as violations holds it. */
export interface PolicyStagedViolationTable {
  run_id: string;
  scan_id: string;
  seq: number;
  id: string;
  rule: string;
  severity: Severity;
  message: string;
  timeline_index: number | null;
}

export type NewPolicyStagedViolation = Insertable<PolicyStagedViolationTable>;
