import { MigrationError } from '../main/db/migrate';
import { VERSION } from '../main/version';
import { WorkspaceError } from '../main/workspace';
import { ServerError, UnreachableError } from './client';
import { orgsCommand, orgsHelp } from './commands/orgs.command';
import { serveCommand, serveHelp } from './commands/serve.command';
import { teamsCommand, teamsHelp } from './commands/teams.command';
import { tokenCommand, tokenHelp } from './commands/token.command';
import { EXIT, UsageError } from './usage-error';

const COMMANDS: Record<string, { run: (args: string[]) => Promise<number>; help: string }> = {
  serve: { run: serveCommand, help: serveHelp },
  token: { run: tokenCommand, help: tokenHelp },
  orgs: { run: orgsCommand, help: orgsHelp },
  teams: { run: teamsCommand, help: teamsHelp },
};

const HELP = `scandesk ${VERSION}: the local-first scans and evidence service

Commands:
${Object.values(COMMANDS)
  .map((command) => command.help)
  .join('\n')}

Client commands read --url / SCANDESK_URL (default http://127.0.0.1:4790) and --token /
SCANDESK_TOKEN (default: the token file of the default data directory).`;

/** Runs one command line and returns the exit code; every failure becomes one readable message. */
export async function main(argv: string[]): Promise<number> {
  const [name, ...args] = argv;
  if (!name || name === 'help' || name === '--help' || name === '-h') {
    process.stdout.write(`${HELP}\n`);
    return name ? EXIT.ok : EXIT.usage;
  }
  if (name === '--version' || name === 'version') {
    process.stdout.write(`${VERSION}\n`);
    return EXIT.ok;
  }
  const command = COMMANDS[name];
  if (!command) {
    process.stderr.write(`error: unknown command "${name}"; run \`scandesk help\`\n`);
    return EXIT.usage;
  }
  if (args.includes('--help') || args.includes('-h')) {
    process.stdout.write(`${command.help}\n`);
    return EXIT.ok;
  }
  try {
    return await command.run(args);
  } catch (error) {
    return report(error);
  }
}

function report(error: unknown): number {
  if (error instanceof ServerError) {
    process.stderr.write(`error: ${error.message} (${error.status} ${error.code})\n`);
    for (const detail of error.details) {
      process.stderr.write(
        `  - ${detail.field ?? detail.entry ?? ''}${detail.field || detail.entry ? ': ' : ''}${detail.message}\n`,
      );
    }
    return EXIT.failed;
  }
  const known = [UnreachableError, MigrationError, WorkspaceError];
  if (known.some((type) => error instanceof type)) {
    process.stderr.write(`error: ${(error as Error).message}\n`);
    return EXIT.failed;
  }
  if (error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
    process.stderr.write(`error: ${(error as Error).message}\n`);
    return EXIT.usage;
  }
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EADDRINUSE' || code === 'EACCES') {
    process.stderr.write(`error: cannot listen: ${(error as Error).message}\n`);
    return EXIT.failed;
  }
  process.stderr.write(`error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  return EXIT.failed;
}
