import { maskSecrets, VERSION } from '../main/cli-core';
import { ServerError } from './client-errors';
import {
  demoHelp,
  evidenceHelp,
  exportHelp,
  importHelp,
  orgsHelp,
  policyHelp,
  remoteHelp,
  scansHelp,
  serveHelp,
  storeHelp,
  submitHelp,
  syncHelp,
  teamsHelp,
  tokenHelp,
} from './commands/help';
import { commandPath, isParseArgsError, joinNegativeValues, parseArgsMessage } from './arg-errors';
import { EXIT, UsageError } from './usage-error';
import { writeErr, writeOut } from './output';
import { terminalSafe } from './terminal-text';

type Run = (args: string[]) => Promise<number>;

/**
 * Each command's module is imported only when that command runs, and the core's heavy modules
 * (fastify, SQLite) only when an operation of src/main/cli-core.ts needs them: a client command
 * such as `scans list` should not pay for them at start-up.
 */
const COMMANDS: Record<string, { help: string; load: () => Promise<Run> }> = {
  serve: { help: serveHelp, load: async () => (await import('./commands/serve.command')).serveCommand },
  token: { help: tokenHelp, load: async () => (await import('./commands/token.command')).tokenCommand },
  orgs: { help: orgsHelp, load: async () => (await import('./commands/orgs.command')).orgsCommand },
  teams: { help: teamsHelp, load: async () => (await import('./commands/teams.command')).teamsCommand },
  submit: { help: submitHelp, load: async () => (await import('./commands/submit.command')).submitCommand },
  scans: { help: scansHelp, load: async () => (await import('./commands/scans.command')).scansCommand },
  evidence: { help: evidenceHelp, load: async () => (await import('./commands/evidence.command')).evidenceCommand },
  export: { help: exportHelp, load: async () => (await import('./commands/export.command')).exportCommand },
  import: { help: importHelp, load: async () => (await import('./commands/import.command')).importCommand },
  policy: { help: policyHelp, load: async () => (await import('./commands/policy.command')).policyCommand },
  demo: { help: demoHelp, load: async () => (await import('./commands/demo.command')).demoCommand },
  store: { help: storeHelp, load: async () => (await import('./commands/store.command')).storeCommand },
  remote: { help: remoteHelp, load: async () => (await import('./commands/remote.command')).remoteCommand },
  sync: { help: syncHelp, load: async () => (await import('./commands/sync.command')).syncCommand },
};

const HELP = `scandesk ${VERSION}: the local-first scans and evidence service

Commands:
${Object.values(COMMANDS)
  .map((command) => command.help)
  .join('\n')}

\`scandesk help COMMAND\` (or \`scandesk COMMAND --help\`) prints one command's usage.
Client commands read --url / SCANDESK_URL (default http://127.0.0.1:4790) and --token /
SCANDESK_TOKEN (default: the token file of the default data directory, sent only to a server
that proves it holds that directory's key).`;

/**
 * Failures that carry a complete sentence for the user. Matched by name, not class, so that this
 * file need not import the workspace and database modules that define some of them.
 */
const SELF_EXPLAINING = new Set([
  'UnreachableError',
  'TransferError',
  'SaveError',
  'MigrationError',
  'WorkspaceError',
  'StoreUnreachableError',
  'StoreCopyError',
]);

/**
 * A database password in the arguments (`--database postgres://me:pw@…`) can be read by every
 * local user in ps and /proc while the process runs. Linux and macOS show process.title in their
 * place, so it is masked first thing, before a command's modules take seconds to load; what was
 * visible before this ran, or in a parent (npm, a shell), stays so. database-flag.ts warns.
 */
function hideSecrets(): void {
  const masked = process.argv.map(maskSecrets);
  if (masked.some((arg, i) => arg !== process.argv[i])) process.title = masked.join(' ');
}

/** Runs one command line and returns the exit code; every failure becomes one readable message. */
export async function main(argv: string[]): Promise<number> {
  hideSecrets();
  const [name, ...args] = argv;
  if (name === 'help' && args.length > 0) return helpFor(args[0]!);
  if (!name || name === 'help' || name === '--help' || name === '-h') {
    writeOut(`${HELP}\n`);
    return name ? EXIT.ok : EXIT.usage;
  }
  if (name === '--version' || name === 'version') {
    writeOut(`${VERSION}\n`);
    return EXIT.ok;
  }
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!command) {
    writeErr(`error: unknown command "${name}"; run \`scandesk help\`\n`);
    return EXIT.usage;
  }
  if (args.includes('--help') || args.includes('-h')) {
    writeOut(`${command.help}\n`);
    return EXIT.ok;
  }
  try {
    const run = await command.load();
    return await run(joinNegativeValues(args));
  } catch (error) {
    return report(error, commandPath(name, args, command.help));
  }
}

/** `scandesk help scans`: that command's help alone, as `scandesk scans --help` prints it. */
function helpFor(name: string): number {
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!command) {
    writeErr(`error: unknown command "${name}"; run \`scandesk help\`\n`);
    return EXIT.usage;
  }
  writeOut(`${command.help}\n`);
  return EXIT.ok;
}

function report(error: unknown, path: string): number {
  if (error instanceof ServerError) {
    // The server's words, each kept to its line: a message cannot print lines of its own.
    writeErr(`error: ${terminalSafe(error.message)} (${error.status} ${terminalSafe(error.code)})\n`);
    for (const detail of error.details) {
      const name = detail.field ?? detail.entry;
      writeErr(`  - ${name ? `${terminalSafe(name)}: ` : ''}${terminalSafe(detail.message)}\n`);
    }
    return EXIT.failed;
  }
  if (error instanceof Error && SELF_EXPLAINING.has(error.name)) {
    writeErr(`error: ${error.message}\n`);
    return EXIT.failed;
  }
  if (isParseArgsError(error)) {
    writeErr(`error: ${parseArgsMessage(error, path)}\n`);
    return EXIT.usage;
  }
  if (error instanceof UsageError) {
    writeErr(`error: ${(error as Error).message}\n`);
    return EXIT.usage;
  }
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EADDRINUSE' || code === 'EACCES') {
    writeErr(`error: cannot listen: ${(error as Error).message}\n`);
    return EXIT.failed;
  }
  writeErr(`error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  return EXIT.failed;
}
