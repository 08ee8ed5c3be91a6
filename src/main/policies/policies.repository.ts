import type { Policy } from '../../shared/api/policies';
import { EMPTY_POLICY } from '../../shared/api/policies';
import type { Executor, PolicyRow } from '../db/index';

function toPolicy(row: PolicyRow): Policy {
  return {
    max_tokens_per_scan: row.max_tokens_per_scan,
    max_tokens_per_request: row.max_tokens_per_request,
    allowed_tools: row.allowed_tools === null ? null : (JSON.parse(row.allowed_tools) as string[]),
    blocked_tools: JSON.parse(row.blocked_tools) as string[],
    blocked_actions: JSON.parse(row.blocked_actions) as string[],
  };
}

/** The organization's policy; an organization without a row has the empty policy. */
export async function findPolicy(db: Executor, organizationId: string): Promise<Policy> {
  const row = await db
    .selectFrom('policies')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .executeTakeFirst();
  return row ? toPolicy(row) : { ...EMPTY_POLICY };
}

export async function savePolicy(db: Executor, organizationId: string, policy: Policy, at: string): Promise<void> {
  const values = {
    max_tokens_per_scan: policy.max_tokens_per_scan,
    max_tokens_per_request: policy.max_tokens_per_request,
    allowed_tools: policy.allowed_tools === null ? null : JSON.stringify(policy.allowed_tools),
    blocked_tools: JSON.stringify(policy.blocked_tools),
    blocked_actions: JSON.stringify(policy.blocked_actions),
    updated_at: at,
  };
  await db
    .insertInto('policies')
    .values({ organization_id: organizationId, ...values })
    .onConflict((oc) => oc.column('organization_id').doUpdateSet(values))
    .execute();
}
