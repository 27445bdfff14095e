import { describe, expect, it } from 'vitest';
import { HOW_TO, decideChromium, ensureChromium, type ChromiumHost } from '../../scripts/check-chromium';

/** A machine made of answers: nothing is installed or run for real; `ran` records the commands. */
function fakeHost(options: {
  files?: string[];
  root?: boolean;
  commands?: string[];
  chromiumPath?: string;
  installs?: boolean;
  exitCode?: number;
}) {
  const files = new Set(options.files ?? []);
  const ran: string[][] = [];
  const out: string[] = [];
  const err: string[] = [];
  const host: ChromiumHost = {
    chromiumPath: options.chromiumPath,
    exists: (file) => files.has(file),
    isRoot: () => options.root ?? false,
    hasCommand: (name) => (options.commands ?? ['apt-get']).includes(name),
    run: (command) => {
      ran.push(command);
      if (command.includes('install') && options.installs !== false) files.add('/usr/bin/chromium');
      return options.exitCode ?? 0;
    },
    version: (file) => (files.has(file) ? { ok: true, version: 'Chromium 142.0.7444.175 built on Debian' } : { ok: false, reason: `${file} --version could not run` }),
    log: (line) => out.push(line),
    error: (line) => err.push(line),
  };
  return { host, ran, out, err };
}

describe('decideChromium', () => {
  it('present: /usr/bin/chromium, or the CHROMIUM_PATH that exists', () => {
    expect(decideChromium(fakeHost({ files: ['/usr/bin/chromium'] }).host)).toEqual({ kind: 'present', executable: '/usr/bin/chromium' });
    expect(decideChromium(fakeHost({ files: ['/opt/chrome/chrome'], chromiumPath: '/opt/chrome/chrome' }).host)).toEqual({
      kind: 'present',
      executable: '/opt/chrome/chrome',
    });
  });

  it('missing as root: apt-get update, then apt-get install -y chromium', () => {
    expect(decideChromium(fakeHost({ root: true }).host)).toEqual({
      kind: 'install',
      executable: '/usr/bin/chromium',
      commands: [
        ['apt-get', 'update'],
        ['env', 'DEBIAN_FRONTEND=noninteractive', 'apt-get', 'install', '-y', 'chromium'],
      ],
    });
  });

  it('missing with sudo: the same commands through sudo', () => {
    const decision = decideChromium(fakeHost({ commands: ['apt-get', 'sudo'] }).host);
    expect(decision.kind).toBe('install');
    expect(decision.kind === 'install' && decision.commands.map((c) => c.slice(0, 2))).toEqual([
      ['sudo', 'apt-get'],
      ['sudo', 'env'],
    ]);
  });

  it('missing without root and without sudo, or without apt-get, or a CHROMIUM_PATH that is not there: nothing to install', () => {
    expect(decideChromium(fakeHost({}).host)).toMatchObject({ kind: 'missing', reason: '/usr/bin/chromium does not exist, and installing it needs root (sudo is not installed).' });
    expect(decideChromium(fakeHost({ root: true, commands: [] }).host)).toMatchObject({ kind: 'missing' });
    expect(decideChromium(fakeHost({ root: true, chromiumPath: '/opt/lipsa/chrome' }).host)).toMatchObject({
      kind: 'missing',
      reason: 'CHROMIUM_PATH=/opt/lipsa/chrome does not exist.',
    });
  });
});

describe('ensureChromium', () => {
  it('present: runs nothing, prints the version, exit 0', () => {
    const { host, ran, out } = fakeHost({ files: ['/usr/bin/chromium'] });
    expect(ensureChromium(host)).toBe(0);
    expect(ran).toEqual([]);
    expect(out).toEqual(['Chromium for the e2e tests: /usr/bin/chromium (Chromium 142.0.7444.175 built on Debian)']);
  });

  it('missing with root: says what it does, installs, checks the version, exit 0', () => {
    const { host, ran, out } = fakeHost({ root: true });
    expect(ensureChromium(host)).toBe(0);
    expect(ran.map((c) => c.join(' '))).toEqual(['apt-get update', 'env DEBIAN_FRONTEND=noninteractive apt-get install -y chromium']);
    expect(out[0]).toBe(
      '/usr/bin/chromium is missing: installing the Debian package chromium (apt-get update && env DEBIAN_FRONTEND=noninteractive apt-get install -y chromium)',
    );
    expect(out[1]).toContain('Chromium for the e2e tests: /usr/bin/chromium');
  });

  it('missing without root: today’s clear message, nothing run, exit 1', () => {
    const { host, ran, err } = fakeHost({});
    expect(ensureChromium(host)).toBe(1);
    expect(ran).toEqual([]);
    expect(err.join('\n')).toContain(HOW_TO);
    expect(err.join('\n')).toContain('sudo apt-get update && sudo apt-get install -y chromium');
  });

  it('a failed install (sudo refused, no network) stops with the message, exit 1', () => {
    const { host, ran, err } = fakeHost({ commands: ['apt-get', 'sudo'], exitCode: 1 });
    expect(ensureChromium(host)).toBe(1);
    expect(ran).toEqual([['sudo', 'apt-get', 'update']]);
    expect(err.join('\n')).toContain('`sudo apt-get update` failed (exit 1).');
    expect(err.join('\n')).toContain(HOW_TO);
  });
});
