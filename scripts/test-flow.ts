/**
 * `npm run test:flow -- <flow file>... [--all] [Playwright options]`: QA's run of flow files through the
 * real browser and server (tests/e2e/flow-walker.spec.ts). Default: every file in flows/, the CI set of
 * walks (every variant applies in one of them); `--all`: every partner × activity that matters.
 *
 * A file may be anywhere on disk (a draft): it takes the place of the file of flows/ with its
 * registration type, in a copy of flows/ that both the build (`vite build --mode test`) and the e2e
 * server run (`E2E_FLOWS_DIR`, scripts/vite-plugin-flows-dir.ts, tests/e2e/serve.ts). That build goes to
 * its own folder, never dist/. E2E_PORT and E2E_DIST are honoured (another port, another build folder);
 * other `--…` options go to Playwright (`--grep "partner icredit "`, `--reporter=list`).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const flowsDir = path.join(root, 'flows');
const isFlowFile = (name: string) => name.endsWith('.json') && name !== 'flow.schema.json';

export interface TestFlowArgs {
  files: string[];
  all: boolean;
  playwright: string[];
}

/** The command line: flow files, `--all`, and the options for Playwright (with their values: `--grep x`). */
export function parseArgs(argv: string[]): TestFlowArgs {
  const files: string[] = [];
  const playwright: string[] = [];
  let all = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--all') all = true;
    else if (arg.startsWith('-')) {
      playwright.push(arg);
      // An option's value (`--grep "partner icredit"`, `--workers 1`) is no flow file.
      if (!arg.includes('=') && argv[i + 1] !== undefined && !argv[i + 1].startsWith('-') && !argv[i + 1].endsWith('.json')) playwright.push(argv[++i]);
    } else files.push(arg);
  }
  return { files, all, playwright };
}

/**
 * A copy of flows/ in `dir` in which each of `files` that is not flows/' own takes the place of the
 * file with its registration type; null when every file is flows/' own (nothing to replace).
 */
export function flowsCopy(files: string[], dir: string): string | null {
  const outside = files.map((f) => path.resolve(f)).filter((f) => path.dirname(f) !== flowsDir);
  if (!outside.length) return null;
  fs.rmSync(dir, { recursive: true, force: true });
  fs.cpSync(flowsDir, dir, { recursive: true });
  const byType = new Map<number, string>();
  for (const name of fs.readdirSync(flowsDir).filter(isFlowFile)) {
    byType.set((JSON.parse(fs.readFileSync(path.join(flowsDir, name), 'utf8')) as { registrationType: number }).registrationType, name);
  }
  for (const file of outside) {
    const type = (JSON.parse(fs.readFileSync(file, 'utf8')) as { registrationType?: number }).registrationType;
    const name = type === undefined ? undefined : byType.get(type);
    if (!name) throw new Error(`${file}: its registrationType (${type}) is none of flows/ (${[...byType.keys()].join(', ')})`);
    fs.copyFileSync(file, path.join(dir, name));
  }
  return dir;
}

/** Whether something answers on 127.0.0.1:port (Playwright would reuse it instead of starting the e2e server). */
function portTaken(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

function run(command: string, commandArgs: string[], env: NodeJS.ProcessEnv = process.env): void {
  const result = spawnSync(command, commandArgs, { stdio: 'inherit', env, shell: process.platform === 'win32', cwd: root });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

async function main() {
  const { files: given, all, playwright } = parseArgs(process.argv.slice(2));
  const files = given.length ? given.map((f) => path.resolve(f)) : fs.readdirSync(flowsDir).filter(isFlowFile).map((f) => path.join(flowsDir, f));
  for (const file of files) {
    if (!fs.existsSync(file)) {
      console.error(`test:flow: ${file} does not exist`);
      process.exit(1);
    }
  }
  const port = Number(process.env.E2E_PORT || 3100);
  const copy = flowsCopy(files, path.join(os.tmpdir(), `ghiseu-test-flow-${port}`, 'flows'));
  // The walker's describe titles name the files: relative to the repository when they are in it.
  const shown = files.map((f) => (path.relative(root, f).startsWith('..') ? f : path.relative(root, f).replace(/\\/g, '/')));
  const env: NodeJS.ProcessEnv = { ...process.env, FLOW_FILES: shown.join(','), WALK_ALL: all ? '1' : '' };
  let dist = process.env.E2E_DIST;
  if (copy) {
    if (await portTaken(port)) {
      console.error(`test:flow: 127.0.0.1:${port} is in use; Playwright would walk that server, not one running ${copy}. Set E2E_PORT to a free port.`);
      process.exit(1);
    }
    env.E2E_FLOWS_DIR = copy;
    // Never dist/: that build bundles flows/.
    dist ??= path.join(os.tmpdir(), `ghiseu-test-flow-${port}`, 'dist');
  }
  if (dist) env.E2E_DIST = path.resolve(dist);

  const bin = (name: string) => path.join(root, 'node_modules', '.bin', name);
  run(bin('tsx'), ['scripts/check-chromium.ts']);
  run(bin('vite'), ['build', '--logLevel', 'warn', ...(copy ? ['--mode', 'test'] : []), ...(dist ? ['--outDir', env.E2E_DIST!, '--emptyOutDir'] : [])], env);
  console.log(`test:flow: ${shown.join(', ')}${copy ? ` (run from ${copy})` : ''}${all ? ', every partner × activity' : ''}`);
  run(bin('playwright'), ['test', 'tests/e2e/flow-walker.spec.ts', ...playwright], env);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
