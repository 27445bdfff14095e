/**
 * `npm run test:flow -- flows/new-pfa.json [more flow files]`: QA's run of one flow file (default:
 * every file in flows/) through the real browser and server. Checks Chromium, builds the app and
 * runs tests/e2e/flow-walker.spec.ts with FLOW_FILES set; extra `--…` options go to Playwright.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const args = process.argv.slice(2);
const files = args.filter((a) => !a.startsWith('-'));
const options = args.filter((a) => a.startsWith('-'));
const flows = files.length ? files : fs.readdirSync('flows').filter((f) => f.endsWith('.json') && f !== 'flow.schema.json').map((f) => `flows/${f}`);

for (const file of flows) {
  if (!fs.existsSync(file)) {
    console.error(`test:flow: ${file} does not exist (flow files are in flows/)`);
    process.exit(1);
  }
}

function run(command: string, commandArgs: string[], env: NodeJS.ProcessEnv = process.env): void {
  const result = spawnSync(command, commandArgs, { stdio: 'inherit', env, shell: process.platform === 'win32' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const bin = (name: string) => path.join('node_modules', '.bin', name);
run(bin('tsx'), ['scripts/check-chromium.ts']);
run(bin('vite'), ['build', '--logLevel', 'warn']);
console.log(`test:flow: ${flows.join(', ')}`);
run(bin('playwright'), ['test', 'tests/e2e/flow-walker.spec.ts', ...options], { ...process.env, FLOW_FILES: flows.map((f) => f.replace(/\\/g, '/')).join(',') });
