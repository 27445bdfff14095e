/**
 * `tsx scripts/check-chromium.ts` (first step of `npm run test:e2e`): the e2e tests use the
 * Debian Chromium (`/usr/bin/chromium`, or CHROMIUM_PATH), never a browser downloaded by Playwright.
 * Exits 0 when it exists and answers `--version`, else explains how to install it and exits 1.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';

const executable = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const HOW_TO =
  'Chromium is missing: install it with `sudo apt-get update && sudo apt-get install -y chromium` (Debian), ' +
  'or set CHROMIUM_PATH. Never run `playwright install` here.';

function fail(reason: string): never {
  console.error(`${reason}\n${HOW_TO}`);
  process.exit(1);
}

if (!fs.existsSync(executable)) fail(`${executable} does not exist.`);

const run = spawnSync(executable, ['--version'], { encoding: 'utf8', timeout: 30_000 });
if (run.error) fail(`${executable} --version could not run: ${run.error.message}`);
const version = (run.stdout ?? '').trim();
if (run.status !== 0 || !version) {
  fail(`${executable} --version failed (exit ${run.status ?? run.signal}): ${(run.stderr || run.stdout || '').trim()}`);
}
console.log(`Chromium for the e2e tests: ${executable} (${version})`);
