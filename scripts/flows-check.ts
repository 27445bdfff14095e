/**
 * `npm run flows:check [-- flows/new-pfa.json ...]`: validates every flow file and every variant
 * of it (the checks: server/flows/check.ts, which the staff preview lists too). Prints problems
 * with their JSON path; exits 1 on errors.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkFlows, checkInput, flowEndpoints, readFlowFiles, type CheckInput } from '../server/flows/check';

export { checkFlows, type CheckInput, type Problem } from '../server/flows/check';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The flow files of the repository (or the given ones), with the server's route table. */
export async function repositoryInput(fileArgs: string[] = []): Promise<CheckInput> {
  const files = fileArgs.length
    ? fileArgs.map((f) => ({ file: path.relative(root, path.resolve(f)), flow: JSON.parse(fs.readFileSync(path.resolve(f), 'utf8')) as unknown }))
    : readFlowFiles().map(({ file, flow }) => ({ file: `flows/${file}`, flow }));
  const { buildApp } = await import('../server/app');
  const { loadConfig } = await import('../server/config');
  const app = await buildApp({ ...loadConfig({ DATA_DIR: ':memory:', NODE_ENV: 'test', SERVE_STATIC: '0' }), databaseUrl: null });
  await app.ready();
  const routes = new Set<string>();
  for (const method of ['GET', 'POST'] as const) {
    for (const url of files.flatMap((f) => flowEndpoints(f.flow))) if (app.hasRoute({ method, url })) routes.add(`${method} ${url}`);
  }
  await app.close();
  return checkInput(files, (method, url) => routes.has(`${method} ${url}`));
}

async function main() {
  const input = await repositoryInput(process.argv.slice(2).filter((a) => !a.startsWith('-')));
  const problems = checkFlows(input);
  for (const p of problems) console.log(`${p.level === 'error' ? 'error  ' : 'warning'} ${p.file}${p.path}: ${p.message}`);
  const errors = problems.filter((p) => p.level === 'error').length;
  const warnings = problems.length - errors;
  console.log(`flows:check: ${input.files.length} flow file(s), ${errors} error(s), ${warnings} warning(s)`);
  process.exit(errors ? 1 : 0);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  void main();
}
