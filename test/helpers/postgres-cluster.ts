/**
 * A private PostgreSQL 15 for a test run: initdb in a temp dir, a free port on 127.0.0.1, stopped
 * and removed at the end. Never a mock, never the system's cluster. initdb refuses root, so as
 * root the cluster runs as the `postgres` user. A developer with a server of their own sets
 * SCANDESK_TEST_DATABASE_URL (an admin URL) instead.
 */
import { execFileSync } from 'node:child_process';
import { chownSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

const BIN = '/usr/lib/postgresql/15/bin';

export interface Cluster {
  adminUrl: string;
  stop(): void;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

function asPostgres(command: string, args: string[]): void {
  const [file, argv] =
    process.getuid?.() === 0
      ? ['runuser', ['-u', 'postgres', '--', join(BIN, command), ...args]]
      : [join(BIN, command), args];
  execFileSync(file, argv, { stdio: ['ignore', 'ignore', 'pipe'] });
}

export async function startCluster(): Promise<Cluster> {
  const dir = mkdtempSync(join(tmpdir(), 'scandesk-pg-'));
  if (process.getuid?.() === 0) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(dir, uid, gid);
  }
  const data = join(dir, 'data');
  const port = await freePort();
  try {
    asPostgres('initdb', ['--no-sync', '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C.UTF-8', '-D', data]);
    // Throwaway data: no fsync. Enough connections for several servers' pools at once.
    const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300`;
    asPostgres('pg_ctl', ['start', '-w', '-s', '-D', data, '-l', join(dir, 'log'), '-o', options]);
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  let stopped = false;
  return {
    adminUrl: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop() {
      if (stopped) return;
      stopped = true;
      try {
        asPostgres('pg_ctl', ['stop', '-s', '-m', 'immediate', '-D', data]);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

const quote = (name: string): string => `"${name.replaceAll('"', '""')}"`;

async function withAdmin<T>(adminUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** The URL of database `name` on the server of `adminUrl`. */
export function databaseUrl(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function createDatabase(adminUrl: string, name: string, template?: string): Promise<string> {
  await withAdmin(adminUrl, (client) =>
    client.query(`CREATE DATABASE ${quote(name)}${template ? ` TEMPLATE ${quote(template)}` : ''}`),
  );
  return databaseUrl(adminUrl, name);
}

export async function dropDatabase(adminUrl: string, name: string): Promise<void> {
  await withAdmin(adminUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${quote(name)} WITH (FORCE)`));
}
