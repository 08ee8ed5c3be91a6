import type { SyncChanges } from '../../shared/api/sync';

// The shapes of the remote answers a sync reads, checked before anything is taken from them. The
// remote may be any server of the upstream interface (../shared/UPSTREAM.md leaves much "not
// shown"), so only the fields the sync uses are required, and extra fields are ignored. An answer
// that fails its check is the remote's fault (RemoteBroken), never a crash here.

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isCount = (value: unknown): value is number =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
/** Ids the sync puts in a path or stores: the API's id rule (docs/contract/api.md#basics). */
const ID = /^(?!\.{1,2}$)[A-Za-z0-9_.:-]{1,100}$/;
export const isRemoteId = (value: unknown): value is string => typeof value === 'string' && ID.test(value);

/** A page of the change feed (src/shared/api/sync.ts). */
export function isChangesPage(value: unknown): value is SyncChanges {
  return (
    isObject(value) &&
    Array.isArray(value.changes) &&
    value.changes.every((change) => isObject(change) && isRemoteId(change.id) && isCount(change.change_seq)) &&
    typeof value.cursor === 'string' &&
    value.cursor.length > 0 &&
    typeof value.more === 'boolean' &&
    isCount(value.total)
  );
}

export interface RemoteOrganization {
  id: string;
  name: unknown;
  role: unknown;
}

export function isOrganizationList(value: unknown): value is { organizations: RemoteOrganization[] } {
  return (
    isObject(value) &&
    Array.isArray(value.organizations) &&
    value.organizations.every((org) => isObject(org) && isRemoteId(org.id))
  );
}

/** `GET /v1/organizations/:id`: only `plan` and `created_at` are read, and either may be missing. */
export function isOrganizationDetail(value: unknown): value is { plan?: unknown; created_at?: unknown } {
  return isObject(value);
}

export interface RemoteTeam {
  id: string;
  name: unknown;
}

export function isTeamList(value: unknown): value is { teams: RemoteTeam[] } {
  return (
    isObject(value) && Array.isArray(value.teams) && value.teams.every((team) => isObject(team) && isRemoteId(team.id))
  );
}

export interface RemoteListedScan {
  id: string;
  created_at: string;
}

/** `GET /v1/scans` of the upstream interface: `{scans: [{id, created_at, …}], total}`. */
export function isScanListPage(value: unknown): value is { scans: RemoteListedScan[]; total: number } {
  return (
    isObject(value) &&
    Array.isArray(value.scans) &&
    value.scans.every(
      (scan) =>
        isObject(scan) &&
        isRemoteId(scan.id) &&
        typeof scan.created_at === 'string' &&
        !Number.isNaN(Date.parse(scan.created_at)),
    ) &&
    isCount(value.total)
  );
}

/** `GET /v1/scans/:id`: an object with the scan's id; the import checks the rest. */
export function isScanDocument(value: unknown): value is Json & { id: string } {
  return isObject(value) && isRemoteId(value.id);
}

/** A Scandesk remote's answer to a pushed scan: its id there and its verdict. */
export interface PushedScanAnswer {
  id: string;
  violation_count?: number;
  violations: { severity?: unknown }[];
}

export function isPushedScanAnswer(value: unknown): value is PushedScanAnswer {
  return (
    isObject(value) &&
    isRemoteId(value.id) &&
    Array.isArray(value.violations) &&
    value.violations.every(isObject) &&
    (value.violation_count === undefined || isCount(value.violation_count))
  );
}
