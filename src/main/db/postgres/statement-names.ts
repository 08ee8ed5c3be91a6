// Which statement texts a connection keeps prepared under a name. An unnamed statement is parsed
// and analysed again on every run; for a list request at 10M that was about 0.5 ms of 4.5
// (docs/benchmarks.md, "Named statements on PostgreSQL"). PostgreSQL still plans each run for its
// parameters (a generic plan read the list 20× slower), so only the parse is saved.
//
// Pure: the driver asks for a text's name, and runs the text unnamed when there is none.
// - One name per text for the whole pool, so that its connections agree, and pg's client (which
//   keeps what it prepared under each name) never sees a name reused for another text.
// - Only data statements, of bounded size: bulk inserts with a row count of their own in each text
//   would fill every connection with statements run once.
// - No `*` but `count(*)`: PostgreSQL refuses to run a prepared statement whose result columns a
//   migration changed, and a `*` is what such a migration changes.
// - At most `limit` texts: each connection holds every one of them.
// - Off for good once the server does not hold what a connection prepared: a pooler in transaction
//   mode hands a connection's statements to other server sessions (turnOff).

const DATA_STATEMENT = /^\s*(select|with|insert|update|delete)\b/i;
const STAR = /\*/;
const COUNT_STAR = /count\(\*\)/gi;

/** Statements longer than this stay unnamed. */
export const MAX_NAMED_LENGTH = 8_000;
/** Nor statements with more parameters than this (multi-row inserts). */
export const MAX_NAMED_PARAMETERS = 64;

/**
 * The server's answers that say a connection's named statements are not its session's own:
 * `prepared statement "…" does not exist` and `… already exists`.
 */
const LOST_STATEMENT_CODES = new Set(['26000', '42P05']);

/** Whether `error` is PostgreSQL's answer that a named statement is not where it was prepared. */
export function isLostStatement(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && LOST_STATEMENT_CODES.has(code);
}

export class StatementNames {
  private readonly names = new Map<string, string>();
  private off = false;

  constructor(private readonly limit: number) {}

  /** From now on every text runs unnamed. */
  turnOff(): void {
    this.off = true;
  }

  get isOff(): boolean {
    return this.off;
  }

  /** The name `text` runs under, or undefined: run it unnamed. */
  nameOf(text: string, parameters: number): string | undefined {
    if (this.off) return undefined;
    const known = this.names.get(text);
    if (known !== undefined) return known;
    if (this.names.size >= this.limit || !namable(text, parameters)) return undefined;
    const name = `scandesk_${this.names.size}`;
    this.names.set(text, name);
    return name;
  }
}

function namable(text: string, parameters: number): boolean {
  return (
    text.length <= MAX_NAMED_LENGTH &&
    parameters <= MAX_NAMED_PARAMETERS &&
    DATA_STATEMENT.test(text) &&
    !STAR.test(text.replace(COUNT_STAR, ''))
  );
}
