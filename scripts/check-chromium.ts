/**
 * `tsx scripts/check-chromium.ts` (first step of `npm run test:e2e`, and step 2 of `.ci/run`): the
 * e2e tests use the Debian Chromium (`/usr/bin/chromium`, or CHROMIUM_PATH), never a browser
 * downloaded by Playwright (never `playwright install`).
 *
 * - present: checks that it answers `--version`, exits 0;
 * - /usr/bin/chromium missing, running as root or with sudo: installs the Debian package
 *   (`apt-get update && apt-get install -y chromium`), saying so, then checks it as above;
 * - missing without root and sudo (or CHROMIUM_PATH names a file that is not there): explains how
 *   to install it and exits 1, installing nothing.
 *
 * The decision is a pure function of injected checks (tests/scripts/check-chromium.test.ts).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

export const DEFAULT_CHROMIUM = '/usr/bin/chromium';

export const HOW_TO =
  'Chromium is missing: install it with `sudo apt-get update && sudo apt-get install -y chromium` (Debian), ' +
  'or set CHROMIUM_PATH. Never run `playwright install` here.';

/** What the script may look at and do; the real machine by default, fakes in the tests. */
export interface ChromiumHost {
  /** CHROMIUM_PATH, when set. */
  chromiumPath?: string;
  exists(file: string): boolean;
  /** The effective user is root. */
  isRoot(): boolean;
  /** A command is on PATH (`sudo`, `apt-get`). */
  hasCommand(name: string): boolean;
  /** Runs a command with the terminal's input and output; answers its exit code. */
  run(command: string[]): number;
  /** `<chromium> --version`: its output, or why it did not answer. */
  version(file: string): { ok: true; version: string } | { ok: false; reason: string };
  log(line: string): void;
  error(line: string): void;
}

export type ChromiumDecision =
  | { kind: 'present'; executable: string }
  | { kind: 'install'; executable: string; commands: string[][] }
  | { kind: 'missing'; executable: string; reason: string };

const APT_INSTALL = ['env', 'DEBIAN_FRONTEND=noninteractive', 'apt-get', 'install', '-y', 'chromium'];

/** Present, installable (root or sudo, Debian's apt-get), or missing with the reason. */
export function decideChromium(host: Pick<ChromiumHost, 'chromiumPath' | 'exists' | 'isRoot' | 'hasCommand'>): ChromiumDecision {
  const executable = host.chromiumPath || DEFAULT_CHROMIUM;
  if (host.exists(executable)) return { kind: 'present', executable };
  // A browser named by CHROMIUM_PATH is the user's own: the Debian package would not put it there.
  if (host.chromiumPath) return { kind: 'missing', executable, reason: `CHROMIUM_PATH=${executable} does not exist.` };
  if (!host.hasCommand('apt-get')) return { kind: 'missing', executable, reason: `${executable} does not exist and apt-get is not available (not Debian).` };
  const prefix = host.isRoot() ? [] : host.hasCommand('sudo') ? ['sudo'] : null;
  if (!prefix) return { kind: 'missing', executable, reason: `${executable} does not exist, and installing it needs root (sudo is not installed).` };
  return { kind: 'install', executable, commands: [[...prefix, 'apt-get', 'update'], [...prefix, ...APT_INSTALL]] };
}

/** Carries the decision out; answers the exit code (0: Chromium is there and runs). */
export function ensureChromium(host: ChromiumHost): number {
  const decision = decideChromium(host);
  const fail = (reason: string) => {
    host.error(`${reason}\n${HOW_TO}`);
    return 1;
  };
  if (decision.kind === 'missing') return fail(decision.reason);
  if (decision.kind === 'install') {
    host.log(`${decision.executable} is missing: installing the Debian package chromium (${decision.commands.map((c) => c.join(' ')).join(' && ')})`);
    for (const command of decision.commands) {
      const code = host.run(command);
      if (code !== 0) return fail(`\`${command.join(' ')}\` failed (exit ${code}).`);
    }
    if (!host.exists(decision.executable)) return fail(`The package chromium was installed but ${decision.executable} is still missing.`);
  }
  const answer = host.version(decision.executable);
  if (!answer.ok) return fail(answer.reason);
  host.log(`Chromium for the e2e tests: ${decision.executable} (${answer.version})`);
  return 0;
}

function onPath(name: string): boolean {
  return (process.env.PATH ?? '')
    .split(path.delimiter)
    .filter(Boolean)
    .some((dir) => {
      try {
        fs.accessSync(path.join(dir, name), fs.constants.X_OK);
        return true;
      } catch {
        return false;
      }
    });
}

/** The real machine. */
export const systemHost: ChromiumHost = {
  chromiumPath: process.env.CHROMIUM_PATH || undefined,
  exists: (file) => fs.existsSync(file),
  isRoot: () => typeof process.getuid === 'function' && process.getuid() === 0,
  hasCommand: onPath,
  run: ([command, ...args]) => {
    const result = spawnSync(command, args, { stdio: 'inherit' });
    return result.status ?? 1;
  },
  version: (file) => {
    const run = spawnSync(file, ['--version'], { encoding: 'utf8', timeout: 30_000 });
    if (run.error) return { ok: false, reason: `${file} --version could not run: ${run.error.message}` };
    const version = (run.stdout ?? '').trim();
    if (run.status !== 0 || !version) {
      return { ok: false, reason: `${file} --version failed (exit ${run.status ?? run.signal}): ${(run.stderr || run.stdout || '').trim()}` };
    }
    return { ok: true, version };
  },
  log: (line) => console.log(line),
  error: (line) => console.error(line),
};

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  process.exit(ensureChromium(systemHost));
}
