import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { copyStore, databaseFile, describeLocation, tokenFile, type DatabaseLocation } from '../../main/cli-core';
import { countProgress } from '../count-progress';
import { EXIT, UsageError } from '../usage-error';
import { databaseUrl } from './database-flag';
import { writeOut } from '../output';

/** A data directory (its SQLite store) or a postgres:// URL. */
function storeAt(value: string | undefined, flag: '--from' | '--to'): { location: DatabaseLocation; dataDir?: string } {
  if (!value) throw new UsageError(`${flag} is required: a data directory or a postgres:// URL`);
  if (/^postgres(ql)?:/.test(value)) return { location: databaseUrl(value, flag) };
  if (flag === '--from' && !existsSync(databaseFile(value))) {
    throw new UsageError(`--from ${value} holds no store (no ${databaseFile(value)})`);
  }
  mkdirSync(value, { recursive: true, mode: 0o700 });
  return { location: { kind: 'sqlite', file: databaseFile(value) }, dataDir: value };
}

/** `scandesk store copy --from A --to B`: one store into another, all or nothing. */
export async function storeCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { from: { type: 'string' }, to: { type: 'string' } },
  });
  if (positionals[0] !== 'copy' || positionals.length !== 1)
    throw new UsageError('usage: scandesk store copy --from A --to B');
  const from = storeAt(values.from, '--from');
  const to = storeAt(values.to, '--to');
  if (describeLocation(from.location) === describeLocation(to.location))
    throw new UsageError('--from and --to are the same store');
  let started = 0;
  const summary = await copyStore(from.location, to.location, (total) => {
    const progress = countProgress(process.stderr, 'rows');
    let done = 0;
    started = performance.now();
    return (rows) => progress((done += rows), total);
  });
  if (from.dataDir && to.dataDir && existsSync(tokenFile(from.dataDir)) && !existsSync(tokenFile(to.dataDir))) {
    copyFileSync(tokenFile(from.dataDir), tokenFile(to.dataDir));
  }
  const tables = Object.entries(summary.rows)
    .map(([table, n]) => `${n.toLocaleString('en-US')} ${table}`)
    .join(', ');
  writeOut(
    `copied ${summary.total.toLocaleString('en-US')} rows (${tables}) from ${describeLocation(from.location)} ` +
      `to ${describeLocation(to.location)} in ${((performance.now() - started) / 1000).toFixed(1)} s\n`,
  );
  return EXIT.ok;
}
