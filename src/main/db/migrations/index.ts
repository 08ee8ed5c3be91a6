import type { Migration } from 'kysely';
import * as createSchema from './2026_11_21_000000_create_schema';
import * as createSessions from './2026_11_21_060000_create_sessions';
import * as addScansTokensIndex from './2026_11_21_070000_add_scans_tokens_index';
import * as coverScansListIndexes from './2026_11_21_080000_cover_scans_list_indexes';
import * as createScanCounts from './2026_11_21_090000_create_scan_counts';
import * as createDayRollups from './2026_11_21_100000_create_day_rollups';
import * as bindSessions from './2026_11_24_000000_bind_sessions';
import * as createTimelineCells from './2026_11_24_120000_create_timeline_cells';
import * as rebuildTimelineEntries from './2026_11_25_000000_rebuild_timeline_entries';
import * as createTimelines from './2026_11_25_120000_create_timelines';
import * as widenScanDaysTokens from './2026_11_25_180000_widen_scan_days_tokens';
import * as createPolicyRuns from './2026_11_26_101700_create_policy_runs';
import * as keepMeetingTimelineCells from './2026_11_26_114300_keep_meeting_timeline_cells';
import * as trackTokens from './2026_11_26_123000_track_tokens';
import * as stageTimelines from './2026_11_26_124500_stage_timelines';
import * as keepPackageIds from './2026_11_26_131700_keep_package_ids';
import * as createRemotes from './2026_11_26_160000_create_remotes';
import * as trackChanges from './2026_11_26_170000_track_changes';
import * as createSubmitKeys from './2026_11_26_170500_create_submit_keys';
import * as storePulledScans from './2026_11_26_175000_store_pulled_scans';
import * as splitRollupsByOrigin from './2026_11_27_130000_split_rollups_by_origin';
import * as keepSyncBucketSets from './2026_11_27_140000_keep_sync_bucket_sets';
import * as indexScanDaysByOrganization from './2026_11_27_140100_index_scan_days_by_organization';
import * as renameRemoteNamedLocal from './2026_11_29_090000_rename_remote_named_local';
import * as cascadeBulkRowsByTrigger from './2026_11_29_120000_cascade_bulk_rows_by_trigger';
import * as clusterScanDaysByTool from './2026_11_29_140000_cluster_scan_days_by_tool';
import * as createScanHours from './2026_11_30_090000_create_scan_hours';
import * as createOrganizationDays from './2026_12_01_090000_create_organization_days';
import * as indexScanCountsBySubmitter from './2026_12_02_090000_index_scan_counts_by_submitter';
import * as measureScanHours from './2026_12_03_090000_measure_scan_hours';
import * as indexScansBySource from './2026_12_04_090000_index_scans_by_source';
import * as coverScansTokensIndex from './2026_12_05_090000_cover_scans_tokens_index';
import * as countFlaggedScans from './2026_12_06_090000_count_flagged_scans';
import * as createOrganizationHours from './2026_12_07_090000_create_organization_hours';

/**
 * Every migration, oldest first. An explicit list, not a folder scan: the main process is
 * bundled, so there is no folder to scan at run time. Append new migrations at the end.
 */
export const migrations: Readonly<Record<string, Migration>> = {
  '2026_11_21_000000_create_schema': createSchema,
  '2026_11_21_060000_create_sessions': createSessions,
  '2026_11_21_070000_add_scans_tokens_index': addScansTokensIndex,
  '2026_11_21_080000_cover_scans_list_indexes': coverScansListIndexes,
  '2026_11_21_090000_create_scan_counts': createScanCounts,
  '2026_11_21_100000_create_day_rollups': createDayRollups,
  '2026_11_24_000000_bind_sessions': bindSessions,
  '2026_11_24_120000_create_timeline_cells': createTimelineCells,
  '2026_11_25_000000_rebuild_timeline_entries': rebuildTimelineEntries,
  '2026_11_25_120000_create_timelines': createTimelines,
  '2026_11_25_180000_widen_scan_days_tokens': widenScanDaysTokens,
  '2026_11_26_101700_create_policy_runs': createPolicyRuns,
  '2026_11_26_114300_keep_meeting_timeline_cells': keepMeetingTimelineCells,
  '2026_11_26_123000_track_tokens': trackTokens,
  '2026_11_26_124500_stage_timelines': stageTimelines,
  '2026_11_26_131700_keep_package_ids': keepPackageIds,
  '2026_11_26_160000_create_remotes': createRemotes,
  '2026_11_26_170000_track_changes': trackChanges,
  '2026_11_26_170500_create_submit_keys': createSubmitKeys,
  '2026_11_26_175000_store_pulled_scans': storePulledScans,
  '2026_11_27_130000_split_rollups_by_origin': splitRollupsByOrigin,
  '2026_11_27_140000_keep_sync_bucket_sets': keepSyncBucketSets,
  '2026_11_27_140100_index_scan_days_by_organization': indexScanDaysByOrganization,
  '2026_11_29_090000_rename_remote_named_local': renameRemoteNamedLocal,
  '2026_11_29_120000_cascade_bulk_rows_by_trigger': cascadeBulkRowsByTrigger,
  '2026_11_29_140000_cluster_scan_days_by_tool': clusterScanDaysByTool,
  '2026_11_30_090000_create_scan_hours': createScanHours,
  '2026_12_01_090000_create_organization_days': createOrganizationDays,
  '2026_12_02_090000_index_scan_counts_by_submitter': indexScanCountsBySubmitter,
  '2026_12_03_090000_measure_scan_hours': measureScanHours,
  '2026_12_04_090000_index_scans_by_source': indexScansBySource,
  '2026_12_05_090000_cover_scans_tokens_index': coverScansTokensIndex,
  '2026_12_06_090000_count_flagged_scans': countFlaggedScans,
  '2026_12_07_090000_create_organization_hours': createOrganizationHours,
};
