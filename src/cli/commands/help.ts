// Every command's help text, apart from the command modules: `scandesk help` and `CMD --help` must
// not load a module that pulls in fastify, SQLite or TypeBox just to print a few lines.

export const serveHelp = `scandesk serve [--port 4790] [--host 127.0.0.1] [--data-dir DIR] [--database postgres://USER@HOST:PORT/DB]
               [--database-password-file FILE] [--allow-host NAME]... [--trust-proxy] [--log-level info]
  Runs the headless server: the /v1 API and the viewer at /. --port 0 picks a free port.
  --database (or SCANDESK_DATABASE_URL) keeps the store in PostgreSQL instead of the data directory's
  SQLite file; several servers may share one database. The data directory still holds the token file.
  Keep the password off the command line, where every local user can read it (ps): put the URL in
  SCANDESK_DATABASE_URL, or the password in PGPASSWORD, ~/.pgpass (PGPASSFILE) or the first line of
  --database-password-file (or SCANDESK_DATABASE_PASSWORD_FILE). Printed URLs show it as ***.
  --trust-proxy believes X-Forwarded-Proto and -Host from a TLS proxy on this machine (https
  origins are accepted for writes, session cookies become Secure).`;

export const tokenHelp = `scandesk token [--data-dir DIR] [--rotate [--user USER_ID] [--database postgres://…]]
scandesk token list | create | rotate [--user USER_ID]   [--json] [--url URL] [--token T]
scandesk token revoke TOKEN_ID                           [--json] [--url URL] [--token T]
  Prints the workspace owner's token of a data directory. --rotate revokes it and issues a new one
  (in the PostgreSQL store of --database or SCANDESK_DATABASE_URL, when the server uses one), written
  to the token file; with --user it rotates that user's tokens instead and prints the new one.
  list, create, rotate and revoke work through the server: your own tokens, or with --user any
  user's (workspace owner only). create and rotate print the new token once; rotate and revoke end
  the browser sessions the revoked tokens signed in. The token in the data directory's token file is
  changed by rotating, never revoked alone.`;

export const orgsHelp = `scandesk orgs list | create NAME | rename ID NAME | delete ID   [--json] [--url URL] [--token T]
  Lists, creates, renames or deletes organizations.`;

export const teamsHelp = `scandesk teams list ORG_ID | create ORG_ID NAME   [--json] [--url URL] [--token T]
  Lists or creates the teams of an organization.`;

export const submitHelp = `scandesk submit --tool T --action A --tokens N [--org ORG_ID] [--timeline FILE.jsonl] [--breakdown input=N,output=N] [--idempotency-key KEY] [--json]
  Submits a scan and prints its id and policy violations; exits 3 when there are violations.
  --timeline reads one {"timestamp", "action", "tokens"} object per line; --tokens then defaults to their sum.
  A submit whose answer is lost (the connection cut, a gateway's 502–504) is sent again, up to 3 times,
  with the same Idempotency-Key, so it is stored once. The key is random per run; a script that runs
  the command again after a failure passes its own --idempotency-key (1–200 printable characters) to
  get the same guarantee.`;

export const scansHelp = `scandesk scans list [--since DATE] [--until DATE] [--tool T] [--status S] [--org ORG_ID] [--has-violations true|false] [--package-id ID] [--source submitted|imported|pulled] [--origin local|REMOTE] [--origin-id ID] [--limit 50] [--offset 0] [--json]
scandesk scans get SCAN_ID [--json]
scandesk scans violations SCAN_ID [--offset 0] [--limit 100] [--json]
  Lists the scans you can see, newest first, or shows one scan with its violations (the first 1,000;
  \`scans violations\` pages through all of them, up to 1,000 at a time).
  DATE is a UTC day (2026-11-01) or an ISO 8601 date-time. --since includes it; --until with a day
  includes that whole UTC day (--since 2026-11-01 --until 2026-11-01 lists that day's scans), with a
  date-time it ends just before that instant. --package-id finds the scans you imported by the id
  they had in their package (shown by \`scans get\` as "package id"). --source pulled lists the scans a
  sync brought from remotes; --origin local lists the scans made here, --origin team those pulled from the
  remote called team; --origin-id finds a pulled scan by its id on its remote.`;

export const evidenceHelp = `scandesk evidence SCAN_ID [--types timeline,token_breakdown,violations] [--all] [--json]
scandesk evidence download SCAN_ID [-o FILE.zip] [--force] [--json]
  Shows a scan's evidence: totals, token breakdown, violations (the first 1,000) and the timeline (the
  first 50 entries); --all shows every one.
  download saves its evidence package (ZIP), by default as ./scandesk-evidence-SCAN_ID.zip; it never
  leaves a partial file, and overwrites an existing one only with --force.`;

export const exportHelp = `scandesk export --out FILE.zip [--force] SCAN_ID... [--json]
  Saves the given scans as one evidence package (ZIP), for \`scandesk import\` on another machine.
  Never leaves a partial file; overwrites an existing one only with --force.`;

export const importHelp = `scandesk import FILE.zip... [--json]
  Imports evidence packages (format 1, or upstream downloads), each all or nothing, and prints per file
  the scans imported, those already present unchanged, or why the server refused it. Scans are listed
  by the ids they are stored under: a scan you cannot see gets an id of its own, shown with the
  package's id for it (\`scans list --package-id\` finds it by that id later). Exits 1 if any file
  was refused or could not be read.`;

export const policyHelp = `scandesk policy get ORG_ID [--json]
scandesk policy set ORG_ID [--max-tokens-per-scan N|none] [--max-tokens-per-request N|none] [--allowed-tools a,b|any]
                           [--blocked-tools a,b|none] [--blocked-actions a,b|none] [--json]
  Shows an organization's policy, or changes only the given fields of it (owners and admins).`;

export const demoHelp = `scandesk demo --data-dir DIR [--database postgres://… [--database-password-file FILE]] [--scans 5000] [--seed 1] [--now ISO]
  Fills a data directory's store (new or existing; PostgreSQL with --database) with realistic demo organizations, teams, policies and
  scans over the 90 days before --now (default: the current time rounded down to the hour).
  The same --seed, --now and --scans always give the same data.`;

export const storeHelp = `scandesk store copy --from DIR|postgres://… --to DIR|postgres://…
  Copies a whole store (users, tokens, organizations, teams, policies, scans, timelines, violations)
  into an empty one, in one transaction: all or nothing, with progress. SQLite ↔ PostgreSQL, either
  way, or between two of a kind. Browser sessions are not copied; the token file goes along between
  data directories. Stop the servers of both stores first. A PostgreSQL password is best given in
  PGPASSWORD or ~/.pgpass rather than in the URL, where other local users can read it (ps).`;

export const remoteHelp = `scandesk remote add NAME URL (--token-file FILE | --token T | env SCANDESK_REMOTE_TOKEN) [--ca FILE]
                      [--allow-insecure-http] [--no-background] [--interval MIN] [--no-test] [--json]
scandesk remote list [--json]
scandesk remote test NAME [--json]
scandesk remote remove NAME
  Manages the remotes the local server syncs with (workspace owner only): another Scandesk server, or
  any server of the upstream interface. URL is https (plain http only to this machine unless
  --allow-insecure-http); --ca trusts a private CA's certificate (PEM) for it. The remote's token is
  kept in a 0600 file of the data directory and never shown; --token-file or SCANDESK_REMOTE_TOKEN keep
  it out of the process list. add tests the remote unless --no-test and says what it found; remove
  keeps what was pulled, as local data. Background sync (every --interval minutes, default 15) is on
  unless --no-background. Here --token is the remote's: the local server's token comes from
  SCANDESK_TOKEN or the data directory's token file; --url still names the local server.`;

export const syncHelp = `scandesk sync [NAME] [--json] [--url URL] [--token T]
  Syncs with a remote (every remote without NAME): pulls what changed there (organizations, teams and
  the scans you can see, with their evidence), then pushes the scans submitted here that the remote has
  not acknowledged. Shows progress on a terminal and one summary line per remote; deletions on the remote
  are not propagated (the summary counts the scans no longer there, kept here). Exits 0 when every
  remote is done, 1 when one is partial (what failed and why are listed), 2 when one could not be reached.`;
