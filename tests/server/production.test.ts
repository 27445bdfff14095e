import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/app';
import { loadConfig, PRODUCTION_REQUIRED } from '../../server/config';
import type { Mail, MailTransport } from '../../server/mail/mailer';
import { MemoryFileStorage } from '../../server/storage/file-storage';
import { databaseUrl, registerUser, testDatabase, uniqueEmail } from './helpers';
import { PRODUCTION_ENV } from './production-env';
import { deleteKeys, redisRunPrefix } from './redis-helpers';

const root = path.resolve(import.meta.dirname, '../..');

/** A transport standing in for SMTP: keeps what the mail queue's worker sends. */
class CapturingTransport implements MailTransport {
  readonly sent: Mail[] = [];
  async send(mail: Mail) {
    this.sent.push(mail);
  }
}

/** Runs the real entry (server/server.ts) with `env` only; resolves its exit code and output. */
function runEntry(env: NodeJS.ProcessEnv): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/server.ts'], {
      cwd: root,
      env: { PATH: process.env.PATH, SERVE_STATIC: '0', LOG: '0', ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, stderr }));
  });
}

describe('production mode: the entry', () => {
  it('exits non-zero, naming every missing part in one message, when NODE_ENV=production and nothing is set', async () => {
    const { code, stderr } = await runEntry({ NODE_ENV: 'production' });
    expect(code).toBe(1);
    expect(stderr).toMatch(/^Configurația nu este validă; serverul nu pornește\. \/ The configuration is not valid; the server does not start\./m);
    for (const name of PRODUCTION_REQUIRED) expect(stderr).toContain(`  - ${name}: lipsește`);
  }, 30_000);

  it('exits non-zero on a malformed variable in development too (PORT=abc)', async () => {
    const { code, stderr } = await runEntry({ PORT: 'abc', DATA_DIR: ':memory:' });
    expect(code).toBe(1);
    expect(stderr).toContain('  - PORT („abc”): nu este un număr întreg / is not a whole number');
  }, 30_000);
});

describe('production mode: the app with every real part (fakes standing in)', () => {
  let app: FastifyInstance;
  const transport = new CapturingTransport();
  const prefix = redisRunPrefix('production');

  beforeAll(async () => {
    const config = { ...loadConfig({ ...PRODUCTION_ENV, SERVE_STATIC: '0', LOG: '0' }), dataDir: ':memory:', databaseUrl: databaseUrl() };
    // Its limits live in the machine's Redis (REDIS_URL of PRODUCTION_ENV): under this run's own prefix,
    // so counts left there by anything else (another run, a bench) never reach this test.
    app = await buildApp(config, { database: await testDatabase(), mailTransport: transport, storage: new MemoryFileStorage(), redisKeyPrefix: prefix, checkAnswers: true });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await deleteKeys(prefix);
  });

  it('uses the real providers, not the simulators', () => {
    expect(app.config.production).toBe(true);
    expect(app.identity.constructor.name).toBe('VeriffClient');
    expect(app.payments.name).toBe('stripe');
  });

  it('registers no development route: no outbox, no simulated payment, no built-in checkout', async () => {
    const urls = app.registeredRoutes.map((r) => r.url);
    for (const devRoute of ['/api/dev/outbox', '/dev/outbox', '/api/stripe/pay/simulate', '/api/checkout/:id', '/api/checkout/:id/pay', '/api/checkout/:id/cancel']) {
      expect(urls).not.toContain(devRoute);
    }
    expect((await app.inject({ method: 'GET', url: '/api/dev/outbox' })).statusCode).toBe(404);
    expect((await app.inject({ method: 'POST', url: '/api/checkout/pay_x/pay' })).statusCode).toBe(404);
  });

  it('serves the OpenAPI document but not the browsable page', async () => {
    const doc = await app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(doc.statusCode).toBe(200);
    expect(doc.json().openapi).toMatch(/^3\./);
    expect(doc.json().paths['/api/checkout/{id}']).toBeUndefined();
    expect((await app.inject({ method: 'GET', url: '/api/docs/' })).statusCode).toBe(404);
    expect((await app.inject({ method: 'GET', url: '/api/docs/static/swagger-ui-bundle.js' })).statusCode).toBe(404);
  });

  it('serves applicants: a registration is answered and its mail is queued, then sent', async () => {
    const email = uniqueEmail('productie');
    const user = await registerUser(app, { email });
    expect(user.user.email).toBe(email);
    await app.mailer.drain();
    expect(transport.sent.some((m) => m.to === email)).toBe(true);
    const health = await app.inject({ method: 'GET', url: '/api/health' });
    expect(health.statusCode).toBe(200);
  });
});
