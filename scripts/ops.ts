/**
 * The operator command (docs/operations.md "Operator command"): `npm run ops -- <command> …`. Staff add
 * status-timeline items and the trade register's documents to a dossier, and finalize it, through
 * the running server's operator API (`/api/ops/…`, server/routes/ops.ts): the embedded database
 * belongs to the server process, so this command never opens it.
 *
 *   npm run ops -- list [--search text] [--limit n]
 *   npm run ops -- show <dossier>
 *   npm run ops -- add <dossier> <type> [--date YYYY-MM-DD] [--field value …]
 *   npm run ops -- attach <dossier> <file…>
 *   npm run ops -- finalize <dossier> [--date YYYY-MM-DD]
 *   npm run ops -- download <dossier> [--out folder]
 *   npm run ops -- reject <dossier> [--date YYYY-MM-DD]
 *   npm run ops -- ask <dossier> --message "what is missing"
 *   npm run ops -- staff:add --email E --password P --role operator|editor
 *   npm run ops -- files:reencrypt
 *   npm run ops -- erase <e-mail> [--yes]
 *   npm run ops -- retention [--as-of YYYY-MM-DD] [--dry-run]
 *   npm run ops -- help
 *
 * A dossier is the request id or the applicant's e-mail. Server: OPS_URL (default
 * http://localhost:${PORT || 3000}); token: OPS_TOKEN, else the file ${DATA_DIR || ./data}/ops-token
 * that the server writes at start; operator: OPS_ACTOR, the name the audit log records for each
 * read and change (sent as `X-Ops-Actor`; required).
 *
 * The parts: scripts/ops/args.ts (the command line), client.ts (settings and calls, typed by the
 * generated API types), run.ts (each command), format.ts (what is printed), help.ts.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { UsageError, parseCommand, type Command } from './ops/args';
import { OpsError, settingsFrom, type Fetch } from './ops/client';
import { HELP } from './ops/help';
import { runCommand } from './ops/run';

export { UsageError, parseBoolean, parseCommand, parseDate, type Command } from './ops/args';
export { OpsError, actorFrom, settingsFrom, type Fetch, type Settings } from './ops/client';
export { retentionLines, table } from './ops/format';
export { HELP } from './ops/help';
export { runCommand } from './ops/run';

export interface Io {
  out: (text: string) => void;
  err: (text: string) => void;
  fetch?: Fetch;
}

/** The whole command: parses, runs, prints; resolves to the exit code (0 done, 1 failed, 2 wrong use). */
export async function main(argv: string[], env: NodeJS.ProcessEnv = process.env, io: Io = { out: console.log, err: console.error }): Promise<number> {
  let command: Command;
  try {
    command = parseCommand(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.err(`ops: ${error.message}\nRun "npm run ops -- help" for the commands.`);
    return 2;
  }
  try {
    const lines = command.name === 'help' ? [HELP] : await runCommand(command, settingsFrom(env), io.fetch ?? fetch);
    io.out(lines.join('\n'));
    return 0;
  } catch (error) {
    if (!(error instanceof OpsError)) throw error;
    io.err(`ops: ${error.message}`);
    return 1;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  process.exitCode = await main(process.argv.slice(2));
}
