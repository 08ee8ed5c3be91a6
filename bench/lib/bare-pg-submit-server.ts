/**
 * The PostgreSQL submit baseline: `POST /v1/scans` on bare node:http with a `pg` pool, doing
 * what bare-submit-server.ts does on SQLite: parse, check minimally, store the scan row and its
 * timeline (one multi-row INSERT) in one transaction, answer 201. Same database and schema as the
 * real server (its triggers included), no framework, no query builder, no policy.
 *
 * usage: node --import tsx bench/lib/bare-pg-submit-server.ts DATA_DIR DATABASE_URL
 */
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { tokenFile } from '../../src/main/workspace/data-dir';
import { listen } from './bare-common';
import { submissionServer, type Entry, type Submission } from './bare-submission';

const [dataDir, url] = process.argv.slice(2) as [string, string];
const token = Buffer.from(readFileSync(tokenFile(dataDir), 'utf8').trim());
const pool = new pg.Pool({ connectionString: url, max: 10 });
const owner = await pool.query<{ id: string }>('SELECT id FROM users WHERE is_workspace_owner = 1');
const ownerId = owner.rows[0]!.id;

const save = async (id: string, createdAt: number, scan: Submission, timeline: readonly Entry[]): Promise<void> => {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query(
      `INSERT INTO scans (id, created_at, tool, action, tokens, status, source, organization_id, submitted_by,
         token_breakdown, request_count, violation_count, worst_severity)
       VALUES ($1, $2, $3, $4, $5, 'completed', 'submitted', NULL, $6, '{}', $7, 0, 0)`,
      [id, createdAt, scan.tool, scan.action, scan.tokens, ownerId, timeline.length],
    );
    if (timeline.length > 0) {
      const inserted = await client.query<{ id: string }>('INSERT INTO timelines (scan_id) VALUES ($1) RETURNING id', [
        id,
      ]);
      const values = timeline.map((_, i) => `($1, ${i}, $${i * 3 + 2}, $${i * 3 + 3}, $${i * 3 + 4})`);
      await client.query(
        `INSERT INTO timeline_entries (timeline_id, seq, timestamp, action, tokens) VALUES ${values.join(', ')}`,
        [inserted.rows[0]!.id, ...timeline.flatMap((entry) => [entry.timestamp, entry.action, entry.tokens])],
      );
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  } finally {
    client.release();
  }
};

listen(submissionServer(token, save), () => pool.end());
