import type { Kysely, Transaction } from 'kysely';
import type { MembershipTable, OrganizationTable } from './tables/organization.table';
import type { PolicyTable } from './tables/policy.table';
import type { PolicyRunTable, PolicyStagedScanTable, PolicyStagedViolationTable } from './tables/policy-run.table';
import type { RemoteTable, SyncPushTable } from './tables/remote.table';
import type {
  FlaggedOrganizationDayTable,
  FlaggedScanDayTable,
  FlaggedScanHourTable,
  OrganizationDayTable,
  OrganizationHourTable,
  ScanCountTable,
  ScanDayTable,
  ScanHourTable,
  ViolationDayTable,
} from './tables/rollup.table';
import type { ChangeSequenceTable, ScanTable } from './tables/scan.table';
import type { SessionTable } from './tables/session.table';
import type { SubmitKeyTable } from './tables/submit-key.table';
import type { SyncBucketSetTable } from './tables/sync-bucket-set.table';
import type { TeamMemberTable, TeamTable } from './tables/team.table';
import type { TimelineCellTable, TimelineGridTable } from './tables/timeline-cell.table';
import type { TimelineEntryTable, TimelineTable } from './tables/timeline-entry.table';
import type { TokenTable } from './tables/token.table';
import type { UserTable } from './tables/user.table';
import type { ViolationTable } from './tables/violation.table';

export interface Database {
  users: UserTable;
  tokens: TokenTable;
  sessions: SessionTable;
  organizations: OrganizationTable;
  memberships: MembershipTable;
  teams: TeamTable;
  team_members: TeamMemberTable;
  policies: PolicyTable;
  scans: ScanTable;
  scan_counts: ScanCountTable;
  scan_days: ScanDayTable;
  scan_hours: ScanHourTable;
  organization_days: OrganizationDayTable;
  organization_hours: OrganizationHourTable;
  flagged_scan_days: FlaggedScanDayTable;
  flagged_organization_days: FlaggedOrganizationDayTable;
  flagged_scan_hours: FlaggedScanHourTable;
  violation_days: ViolationDayTable;
  timelines: TimelineTable;
  timeline_entries: TimelineEntryTable;
  timeline_grids: TimelineGridTable;
  timeline_cells: TimelineCellTable;
  violations: ViolationTable;
  policy_runs: PolicyRunTable;
  policy_staged_scans: PolicyStagedScanTable;
  policy_staged_violations: PolicyStagedViolationTable;
  remotes: RemoteTable;
  sync_pushes: SyncPushTable;
  change_sequence: ChangeSequenceTable;
  submit_keys: SubmitKeyTable;
  sync_bucket_sets: SyncBucketSetTable;
}

export type Db = Kysely<Database>;
/** Repositories take either; the caller owns the transaction. */
export type Executor = Kysely<Database> | Transaction<Database>;
