/**
 * Vitest global setup of the PostgreSQL run (SCANDESK_TEST_BACKEND=postgres): a private cluster
 * unless SCANDESK_TEST_DATABASE_URL names a server, and one migrated template database that each
 * test's store is cloned from (~45 ms, against ~1 s of migrations). Test workers are forked after
 * this, so they inherit the variables set here. On SQLite it does nothing; run again in the same
 * process (a second project) it does nothing either.
 */
import { migrateToLatest } from '../../src/main/db/migrate';
import { openPostgres } from '../../src/main/db/postgres/postgres-connection';
import { createDatabase, dropDatabase, startCluster, type Cluster } from '../fixtures/postgres-cluster';

export default async function setup(): Promise<(() => Promise<void>) | undefined> {
  if (process.env.SCANDESK_TEST_BACKEND !== 'postgres') return undefined;
  // Named by two vitest projects: the first to run makes the cluster and template, and its
  // teardown (run last) removes them.
  if (process.env.SCANDESK_TEST_TEMPLATE) return undefined;
  let cluster: Cluster | undefined;
  if (!process.env.SCANDESK_TEST_DATABASE_URL) {
    cluster = await startCluster();
    process.env.SCANDESK_TEST_DATABASE_URL = cluster.adminUrl;
  }
  const adminUrl = process.env.SCANDESK_TEST_DATABASE_URL;
  const template = `scandesk_template_${process.pid}`;
  try {
    const db = openPostgres(await createDatabase(adminUrl, template), { poolSize: 1 });
    try {
      await migrateToLatest(db);
    } finally {
      await db.destroy();
    }
  } catch (error) {
    cluster?.stop();
    throw error;
  }
  process.env.SCANDESK_TEST_TEMPLATE = template;
  return async () => {
    if (cluster) cluster.stop();
    else await dropDatabase(adminUrl, template);
  };
}
