/**
 * `npm run dev`: the API and the browser app with hot reload.
 *
 *   [api] tsx watch server/server.ts   on http://127.0.0.1:3001 (PORT=3001, SERVE_STATIC=0)
 *   [web] vite                         on http://localhost:3000 (proxies /api, /dev/outbox, /sso to 3001)
 *
 * Each line of output is prefixed with its process. Ctrl-C stops both; when one of them exits,
 * the other is stopped too and this command exits with the first one's code.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = (name: string) => path.join(root, 'node_modules', '.bin', name);
const API_PORT = '3001';
const WEB_PORT = '3000';

const color = process.stdout.isTTY && !process.env.NO_COLOR;
const paint = (code: number, text: string) => (color ? `\x1b[${code}m${text}\x1b[0m` : text);

interface Task {
  name: string;
  colour: number;
  command: string;
  args: string[];
  env: Record<string, string>;
}

const tasks: Task[] = [
  {
    name: 'api',
    colour: 36,
    command: bin('tsx'),
    args: ['watch', '--clear-screen=false', 'server/server.ts'],
    env: { PORT: API_PORT, SERVE_STATIC: '0', PUBLIC_URL: process.env.PUBLIC_URL ?? `http://localhost:${WEB_PORT}` },
  },
  {
    name: 'web',
    colour: 35,
    command: bin('vite'),
    args: ['--clearScreen', 'false'],
    env: { PORT: WEB_PORT, API_URL: `http://127.0.0.1:${API_PORT}` },
  },
];

const children = new Map<string, ChildProcess>();
let stopping = false;
let exitCode = 0;

function pipe(stream: NodeJS.ReadableStream | null, prefix: string, out: NodeJS.WriteStream) {
  if (!stream) return;
  readline.createInterface({ input: stream, crlfDelay: Infinity }).on('line', (line) => out.write(`${prefix} ${line}\n`));
}

/** Signals a child's whole process group (tsx watch and vite start processes of their own). */
function signal(child: ChildProcess, sig: NodeJS.Signals) {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  try {
    process.kill(-child.pid, sig);
  } catch {
    try {
      child.kill(sig);
    } catch {
      // Already gone.
    }
  }
}

function stopAll(code: number) {
  if (stopping) return;
  stopping = true;
  exitCode = code;
  for (const child of children.values()) signal(child, 'SIGTERM');
  // Whatever did not stop within 5 s is killed.
  setTimeout(() => {
    for (const child of children.values()) signal(child, 'SIGKILL');
    process.exit(exitCode);
  }, 5_000).unref();
}

for (const task of tasks) {
  const prefix = paint(task.colour, `[${task.name}]`);
  const child = spawn(task.command, task.args, {
    cwd: root,
    env: { ...process.env, FORCE_COLOR: color ? '1' : '0', ...task.env },
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group, so that stopping it reaches its children (see `signal`).
    detached: true,
  });
  children.set(task.name, child);
  pipe(child.stdout, prefix, process.stdout);
  pipe(child.stderr, prefix, process.stderr);
  child.on('error', (error) => {
    process.stderr.write(`${prefix} could not start ${task.command}: ${error.message}\n`);
    children.delete(task.name);
    stopAll(1);
  });
  child.on('exit', (code, sig) => {
    children.delete(task.name);
    if (!stopping) {
      process.stderr.write(`${prefix} exited (${sig ?? `code ${code}`}); stopping the others.\n`);
      stopAll(code ?? 1);
    }
    if (children.size === 0) process.exit(exitCode);
  });
}

for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.on(sig, () => stopAll(0));
}
process.on('exit', () => {
  for (const child of children.values()) signal(child, 'SIGKILL');
});

console.log(
  `${paint(1, 'dev')}: API ${paint(36, `http://127.0.0.1:${API_PORT}`)} · app ${paint(35, `http://localhost:${WEB_PORT}`)} · Ctrl-C stops both`,
);
