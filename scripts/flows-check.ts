/**
 * `npm run flows:check [-- flows/new-pfa.json ...] [-- --flows <folder>] [--schemas <folder>]`:
 * checks every flow file and every variant of it (the checks: server/flows/check.ts, which the staff
 * preview lists too), by default flows/ with schemas/; a copy of them with --flows / --schemas (the
 * locales, widget names and seed data are always the repository's). Prints one line per problem,
 * `<level> <file>#<JSON pointer>: <message>`, then the counts; exits 1 on any error. Here only, every
 * widget of a ready step must have a driver of the flow walker (tests/e2e/drivers.ts). Before the
 * counts, as information (neither counted nor changing the exit code), every text of the spec
 * (content/spec-texts.json) that the locale and flow files no longer have as the spec wrote it:
 * `info    locales/ro/steps.json#/card/title: differs from the spec ("…")` (server/flows/spec-texts.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkFlows, checkInput, flowEndpoints, readFlowFiles, type CheckInput, type Problem } from '../server/flows/check';
import { readJsonFile } from '../server/flows/json-file';
import { formatSpecTextNote, repositorySpecTextNotes, type SpecTextNote } from '../server/flows/spec-texts';

export { checkFlows, type CheckInput, type Problem } from '../server/flows/check';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DRIVERS = path.join(root, 'tests/e2e/drivers.ts');

export interface CheckOptions {
  /** Flow files to check instead of a folder's. */
  files?: string[];
  /** The folder of flow files (default flows/). */
  flowsDir?: string;
  /** The folder of step schemas (default schemas/). */
  schemasDir?: string;
  /** Whether to check the flow walker's drivers (default: when tests/e2e/drivers.ts exists). */
  drivers?: boolean;
}

/** How a file or folder is named in problems: from the current folder when it is under it, else in full. */
function shown(file: string): string {
  const relative = path.relative(process.cwd(), file);
  return relative && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative.split(path.sep).join('/') : file;
}

/** The routes of the server (built from the repository's flow files): what the flows' calls are checked against. */
async function routeTable(urls: string[]): Promise<{ routeExists: CheckInput['routeExists']; problem: Problem | null }> {
  try {
    const { buildApp } = await import('../server/app');
    const { loadConfig } = await import('../server/config');
    const app = await buildApp({ ...loadConfig({ DATA_DIR: ':memory:', NODE_ENV: 'test', SERVE_STATIC: '0' }), databaseUrl: null });
    await app.ready();
    const routes = new Set<string>();
    for (const method of ['GET', 'POST'] as const) for (const url of urls) if (app.hasRoute({ method, url })) routes.add(`${method} ${url}`);
    await app.close();
    return { routeExists: (method, url) => routes.has(`${method} ${url}`), problem: null };
  } catch (error) {
    // The server does not start with the repository's files (the mistakes are reported below): endpoints unchecked.
    const message = `endpoints not checked: the server does not start (${(error as Error).message.split('\n')[0]})`;
    return { routeExists: () => true, problem: { level: 'warning', file: 'flows/', path: '#', message } };
  }
}

/** The names of the flow walker's drivers, or a problem if tests/e2e/drivers.ts cannot be loaded. */
async function driverNames(): Promise<{ names?: Set<string>; problem?: Problem }> {
  try {
    const { drivers } = (await import(DRIVERS)) as { drivers: Record<string, unknown> };
    return { names: new Set(Object.keys(drivers)) };
  } catch (error) {
    return { problem: { level: 'warning', file: 'tests/e2e/drivers.ts', path: '#', message: `drivers not checked: ${(error as Error).message.split('\n')[0]}` } };
  }
}

/** The check's input: the flow files (given, or a folder's), the step schemas, the server's routes, the walker's drivers. */
export async function repositoryInput(options: CheckOptions = {}): Promise<CheckInput> {
  const flowsDir = path.resolve(options.flowsDir ?? path.join(root, 'flows'));
  const flows = options.files?.length
    ? options.files.reduce<ReturnType<typeof readFlowFiles>>(
        (acc, f) => {
          const read = readJsonFile(path.resolve(f), shown(path.resolve(f)));
          if ('problem' in read) acc.unreadable.push(read.problem);
          else acc.files.push({ file: shown(path.resolve(f)), flow: read.value });
          return acc;
        },
        { files: [], unreadable: [] },
      )
    : readFlowFiles(flowsDir, `${shown(flowsDir)}/`);
  const routes = await routeTable(flows.files.flatMap((f) => flowEndpoints(f.flow)));
  const drivers = (options.drivers ?? fs.existsSync(DRIVERS)) ? await driverNames() : {};
  const schemasDir = path.resolve(options.schemasDir ?? path.join(root, 'schemas'));
  const unreadable = [...flows.unreadable, ...[routes.problem, drivers.problem].filter((p): p is Problem => !!p)];
  return checkInput({ files: flows.files, unreadable }, routes.routeExists, { schemasDir, schemasLabel: `${shown(schemasDir)}/`, driverNames: drivers.names });
}

/** The command's lines: one per problem, one per text that differs from the spec's (information), then the counts. */
export function formatProblems(problems: Problem[], fileCount: number, notes: SpecTextNote[] = []): string[] {
  const errors = problems.filter((p) => p.level === 'error').length;
  return [
    ...problems.map((p) => `${p.level === 'error' ? 'error  ' : 'warning'} ${p.file}${p.path}: ${p.message}`),
    ...notes.map(formatSpecTextNote),
    `flows:check: ${fileCount} flow file(s), ${errors} error(s), ${problems.length - errors} warning(s)`,
  ];
}

function parseArgs(args: string[]): CheckOptions {
  const options: CheckOptions = { files: [] };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--flows' || arg === '--schemas') {
      const value = args[++i];
      if (!value) throw new Error(`${arg} needs a folder`);
      if (arg === '--flows') options.flowsDir = value;
      else options.schemasDir = value;
    } else if (arg === '--no-drivers') options.drivers = false;
    else if (arg.startsWith('-')) throw new Error(`unknown option ${arg} (options: --flows <folder>, --schemas <folder>, --no-drivers)`);
    else options.files!.push(arg);
  }
  return options;
}

async function main() {
  let options: CheckOptions;
  try {
    options = parseArgs(process.argv.slice(2));
  } catch (error) {
    console.error(`flows:check: ${(error as Error).message}`);
    process.exit(2);
  }
  const input = await repositoryInput(options);
  const problems = checkFlows(input);
  for (const line of formatProblems(problems, input.files.length, repositorySpecTextNotes())) console.log(line);
  process.exit(problems.some((p) => p.level === 'error') ? 1 : 0);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error: unknown) => {
    // Never a stack trace: the checks report what they find; this is only what they could not start with.
    console.error(`flows:check: ${(error as Error).message}`);
    process.exit(2);
  });
}
