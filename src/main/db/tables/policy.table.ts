import type { Selectable } from 'kysely';

export interface PolicyTable {
  organization_id: string;
  max_tokens_per_scan: number | null;
  max_tokens_per_request: number | null;
  /** JSON array of tool names, or null for "any tool". */
  allowed_tools: string | null;
  /** JSON arrays of names. */
  blocked_tools: string;
  blocked_actions: string;
  updated_at: string;
}

export type PolicyRow = Selectable<PolicyTable>;
