/**
 * The processes `npm run bench:api` measures (scripts/bench-api.ts): the app and a bare Fastify route,
 * each a Node child on a port of 127.0.0.1.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { HOST, ROOT } from './api-settings.ts';

export interface Child {
  process: ChildProcess;
  base: string;
  stop(): Promise<void>;
}

/** Starts a Node child and waits (at most 3 minutes) until `healthPath` answers 200. */
export async function startChild(label: string, args: string[], env: Record<string, string>, port: number, healthPath: string): Promise<Child> {
  const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  const base = `http://${HOST}:${port}`;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${label} exited (${child.exitCode}): ${stderr}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${label} did not start: ${stderr}`);
    }
    const ok = await fetch(base + healthPath).then((r) => r.ok, () => false);
    if (ok) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    process: child,
    base,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** The server's per-address limits (server/config.ts), far above what one run sends from one address. */
export const BENCH_LIMITS = Object.fromEntries(
  ['REGISTER_LIMIT_PER_HOUR', 'FORGOT_PASSWORD_LIMIT_PER_HOUR', 'IDENTITY_SESSION_LIMIT_PER_HOUR', 'UPLOAD_LIMIT_PER_HOUR', 'COMPANY_LOOKUP_LIMIT_PER_HOUR']
    .filter((name) => process.env[name] === undefined)
    .map((name) => [name, '1000000']),
);

export const BARE_SERVER = `
import Fastify from 'fastify';
const app = Fastify({ logger: false });
app.get('/bare', async () => ({ message: '', payload: { ok: true } }));
await app.listen({ port: Number(process.env.PORT), host: '${HOST}' });
`;
