import type { Db } from '../../src/main/db/database';
import type { NewRemote, RemoteRow } from '../../src/main/db/tables/remote.table';

let next = 0;

/** A remote row straight in the store (no token file, no probe): what the engine's own tests start from. */
export async function insertRemote(
  db: Db,
  values: Partial<NewRemote> & Pick<NewRemote, 'user_id'>,
): Promise<RemoteRow> {
  next += 1;
  const row: NewRemote = {
    id: `rmt_test${String(next).padStart(4, '0')}`,
    name: `remote-${next}`,
    url: 'http://127.0.0.1:9',
    kind: 'scandesk',
    remote_user_id: null,
    ca_pem: null,
    push_since: 0,
    created_at: Date.now(),
    ...values,
  };
  await db.insertInto('remotes').values(row).execute();
  return db.selectFrom('remotes').selectAll().where('id', '=', row.id).executeTakeFirstOrThrow();
}
