import pg from 'pg';

/**
 * The size of a PostgreSQL cluster's `pg_wal` directory, read every `intervalMs` through the
 * superuser connection `adminUrl` (`pg_ls_waldir`): what stands for SQLite's `-wal` file. It is
 * the whole cluster's log, every database's writes in it; a checkpoint recycles or removes
 * segments once the log passes `max_wal_size`, whatever the server does.
 */
export class PgWalSize {
  private readonly client: pg.Client;
  private readonly timer: NodeJS.Timeout;
  private reading = false;
  /** The last size read, bytes; null until the first answer. */
  latest: number | null = null;

  private constructor(adminUrl: string, intervalMs: number) {
    this.client = new pg.Client({ connectionString: adminUrl });
    this.timer = setInterval(() => void this.read(), intervalMs);
  }

  static async start(adminUrl: string, intervalMs: number): Promise<PgWalSize> {
    const size = new PgWalSize(adminUrl, intervalMs);
    await size.client.connect();
    await size.read();
    return size;
  }

  private async read(): Promise<void> {
    if (this.reading) return;
    this.reading = true;
    try {
      const { rows } = await this.client.query<{ bytes: string }>(
        'select coalesce(sum(size), 0)::text as bytes from pg_ls_waldir()',
      );
      this.latest = Number(rows[0]!.bytes);
    } catch {
      // Closing: the last size read stands.
    } finally {
      this.reading = false;
    }
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.client.end();
  }
}
