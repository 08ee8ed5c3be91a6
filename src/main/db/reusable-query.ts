import type { Compilable, CompiledQuery, QueryResult } from 'kysely';
import type { Executor } from './database';
import { dialectOf } from './dialect';

/**
 * A query that Kysely builds and compiles once per dialect and shape (a row count, say), then
 * runs with new parameters. On a submission's hot path, building and compiling its queries cost
 * more than SQLite's inserts (issue 14). `build` must make SQL that depends on the shape alone,
 * with every value a parameter, in order: the values it is given are placeholders for those that
 * `execute` gets. The compiled query keeps its node, so a SELECT still reads where SELECTs read.
 */
export class ReusableQuery<O, S extends string | number | undefined = undefined> {
  private readonly templates = new Map<string, CompiledQuery<O>>();

  constructor(private readonly build: (db: Executor, shape: S) => Compilable<O>) {}

  /** Runs the query with `parameters`, in the order of the compiled ones; `shape` when it has one. */
  async execute(
    db: Executor,
    parameters: readonly unknown[],
    ...[shape]: S extends undefined ? [] : [shape: S]
  ): Promise<QueryResult<O>> {
    const key = `${dialectOf(db)} ${shape}`;
    let template = this.templates.get(key);
    if (!template) {
      template = this.build(db, shape as S).compile();
      this.templates.set(key, template);
    }
    if (template.parameters.length !== parameters.length) {
      throw new Error(`a reusable query takes ${template.parameters.length} parameters, not ${parameters.length}`);
    }
    return db.executeQuery<O>({ ...template, parameters });
  }
}
