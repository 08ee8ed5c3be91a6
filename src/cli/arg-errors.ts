// What node:util's parseArgs says about a bad command line is written for programmers ("argument is
// ambiguous", a suggestion with an unbalanced quote). These turn it into one sentence for the user.

const NEGATIVE_NUMBER = /^-\d+(\.\d+)?$/;

/**
 * `--tokens -5` as `--tokens=-5`: a negative number is never an option's name, so after a long
 * option it can only be meant as that option's value. The option's own check then says what is
 * wrong with it instead of the parser calling it ambiguous. Nothing after `--` is touched.
 */
export function joinNegativeValues(args: readonly string[]): string[] {
  const joined: string[] = [];
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i]!;
    if (arg === '--') return [...joined, ...args.slice(i)];
    const next = args[i + 1];
    if (/^--[^=]+$/.test(arg) && next !== undefined && NEGATIVE_NUMBER.test(next)) {
      joined.push(`${arg}=${next}`);
      i += 1;
    } else joined.push(arg);
  }
  return joined;
}

/**
 * The words to point at for help: the command, and its subcommand when its help lists one by
 * that name (`scans list`), not an id that merely follows the command (`evidence scan_1`).
 */
export function commandPath(name: string, args: readonly string[], help: string): string {
  const sub = args[0];
  if (sub !== undefined && /^[a-z][a-z-]*$/.test(sub) && help.includes(`scandesk ${name} ${sub}`)) {
    return `${name} ${sub}`;
  }
  return name;
}

export function isParseArgsError(error: unknown): error is Error & { code: string } {
  const code = (error as { code?: unknown } | null)?.code;
  return error instanceof Error && typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS');
}

/** The parser's complaint as one line naming the option, and where its usage is explained. */
export function parseArgsMessage(error: Error & { code: string }, path: string): string {
  const see = `(see scandesk ${path} --help)`;
  const { message } = error;
  const unknown = /^Unknown option '([^']+)'/.exec(message);
  if (unknown) return `unknown option ${unknown[1]} ${see}`;
  const missing = /^Option '(\S+)(?: <value>)?' argument missing/.exec(message);
  if (missing) return `${missing[1]} needs a value ${see}`;
  const ambiguous = /^Option '(\S+)' argument is ambiguous/.exec(message);
  if (ambiguous) {
    const option = ambiguous[1]!;
    return `${option} needs a value; to give one that starts with "-", write ${option}=VALUE`;
  }
  const noValue = /^Option '(\S+)' does not take an argument/.exec(message);
  if (noValue) return `${noValue[1]} takes no value ${see}`;
  const positional = /^Unexpected argument '([^']*)'/.exec(message);
  if (positional) return `unexpected argument "${positional[1]}" ${see}`;
  return `${message.split('\n')[0]} ${see}`;
}
