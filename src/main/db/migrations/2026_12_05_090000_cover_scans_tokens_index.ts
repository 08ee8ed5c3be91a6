import type { Kysely } from 'kysely';

// Frozen in time: never import application code here.
//
// The list in tokens order walked scans_tokens_id (tokens, id) and looked every scan up in the
// table for what the visibility rule and the filters read: with `tool=ChatGPT` at 10,000,000 scans,
// whose tokens run low, the walk from the top read 250 ms of scans for a page of 50. Like the
// other list indexes, this one now carries those columns, so a walk never leaves it.

/** What the visibility rule (docs/contract/auth.md#visibility) and the list filters read from a scan. */
const COVERED = ['tokens', 'id', 'submitted_by', 'organization_id', 'tool', 'status', 'violation_count'];

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the schema of their day
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('scans_tokens_id').execute();
  await db.schema.createIndex('scans_list_tokens').on('scans').columns(COVERED).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('scans_list_tokens').execute();
  await db.schema.createIndex('scans_tokens_id').on('scans').columns(['tokens', 'id']).execute();
}
