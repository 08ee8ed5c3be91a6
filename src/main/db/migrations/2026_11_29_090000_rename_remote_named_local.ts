import type { Kysely } from 'kysely';

// Frozen in time: never import application code here.
//
// `local` names the scans made here in an origin filter, so no remote may take it; a store made
// before that rule may hold a remote of that name, which no command could then pick by name. It
// becomes `local-remote` (or `local-remote-2`, … when taken): every name keeps to the name pattern
// and stays unique. Its scans, cursor and token file are by id, so nothing else moves.

const RESERVED = 'local';
const RENAMED = 'local-remote';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the schema of their day
export async function up(db: Kysely<any>): Promise<void> {
  const rows = (await db.selectFrom('remotes').select('name').execute()) as { name: string }[];
  const names = new Set(rows.map((row) => row.name));
  if (!names.has(RESERVED)) return;
  let name = RENAMED;
  for (let n = 2; names.has(name); n++) name = `${RENAMED}-${n}`;
  await db.updateTable('remotes').set({ name }).where('name', '=', RESERVED).execute();
}

// The old name is no remote's to take back.
export async function down(): Promise<void> {}
