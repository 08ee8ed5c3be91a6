import type { Kysely } from 'kysely';

// Frozen in time: never import application code here.

// The scans list can be ordered by tokens (then id, in the same direction): with this index the
// first page is read off the end of the index instead of sorting every visible scan.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the schema of their day
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('scans_tokens_id').on('scans').columns(['tokens', 'id']).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('scans_tokens_id').execute();
}
