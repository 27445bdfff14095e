import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/app';
import { openDatabase } from '../../server/db';
import { HEALTH_MESSAGES } from '../../server/routes/health';
import { MemoryFileStorage, type FileStorage } from '../../server/storage/file-storage';
import { auth, databaseUrl, registerUser, testApp, testConfig, testDatabase } from './helpers';

const root = path.resolve(import.meta.dirname, '../..');

describe('health', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await testApp();
  });
  afterAll(() => app?.close());

  it('live: the process answers; ready: database and storage reached (no Redis configured)', async () => {
    const live = await app.inject({ method: 'GET', url: '/api/health/live' });
    expect(live.statusCode).toBe(200);
    expect(live.json()).toEqual({ message: HEALTH_MESSAGES.live, payload: { status: 'live' } });
    const ready = await app.inject({ method: 'GET', url: '/api/health/ready' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ message: HEALTH_MESSAGES.ready, payload: { status: 'ready', checks: { database: 'ok', storage: 'ok' }, failed: [] } });
    // The old address stays.
    expect((await app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
  });

  it('ready checks Redis when REDIS_URL is set: reached, or 503 naming it', async () => {
    const withRedis = await testApp({ redisUrl: 'redis://127.0.0.1:6379' });
    const down = await testApp({ redisUrl: 'redis://127.0.0.1:1' });
    try {
      const ok = await withRedis.inject({ method: 'GET', url: '/api/health/ready' });
      expect(ok.statusCode).toBe(200);
      expect(ok.json().payload.checks).toEqual({ database: 'ok', redis: 'ok', storage: 'ok' });
      const failed = await down.inject({ method: 'GET', url: '/api/health/ready' });
      expect(failed.statusCode).toBe(503);
      expect(failed.json()).toEqual({
        message: HEALTH_MESSAGES.notReady,
        payload: { status: 'not_ready', checks: { database: 'ok', redis: 'failed', storage: 'ok' }, failed: ['redis'] },
      });
    } finally {
      await withRedis.close();
      await down.close();
    }
  });

  it('answers 503 naming the database when it is closed, and the storage when it fails', async () => {
    const database = await openDatabase({ databaseUrl: databaseUrl(), dataDir: ':memory:' });
    const broken: FileStorage = Object.assign(new MemoryFileStorage(), {
      get: async () => {
        throw new Error('storage unreachable');
      },
    });
    const app2 = await buildApp(testConfig(), { database, storage: broken });
    try {
      await database.close();
      const res = await app2.inject({ method: 'GET', url: '/api/health/ready' });
      expect(res.statusCode).toBe(503);
      expect(res.json().payload).toEqual({ status: 'not_ready', checks: { database: 'failed', storage: 'failed' }, failed: ['database', 'storage'] });
      expect((await app2.inject({ method: 'GET', url: '/api/health/live' })).statusCode).toBe(200);
    } finally {
      await app2.close();
    }
  });
});

describe('request id', () => {
  let log = '';
  let app: FastifyInstance;
  beforeAll(async () => {
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        log += chunk.toString();
        done();
      },
    });
    app = await buildApp(testConfig(), { database: await testDatabase(), logStream: stream });
    await app.ready();
  });
  afterAll(() => app?.close());

  it('takes a safe X-Request-Id, returns it, and puts it on every log line of the request', async () => {
    const user = await registerUser(app);
    const res = await app.inject({ method: 'GET', url: '/api/registration/open', headers: { ...auth(user.token), 'x-request-id': 'proxy-7f3a.42' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-request-id']).toBe('proxy-7f3a.42');
    const lines = log.split('\n').filter((l) => l.includes('proxy-7f3a.42'));
    expect(lines.length).toBeGreaterThanOrEqual(2); // "incoming request" and "request completed"
    for (const line of lines) expect(JSON.parse(line).reqId).toBe('proxy-7f3a.42');
    // The token stays redacted in those lines.
    expect(lines.join('\n')).not.toContain(user.token);
  });

  it('makes a new id when none is sent or the one sent is unsafe or long', async () => {
    for (const given of [undefined, 'a b<script>', 'x'.repeat(65), 'semn;rău']) {
      const res = await app.inject({ method: 'GET', url: '/api/health/live', headers: given === undefined ? {} : { 'x-request-id': given } });
      expect(res.headers['x-request-id']).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    }
    const a = await app.inject({ method: 'GET', url: '/api/health/live' });
    const b = await app.inject({ method: 'GET', url: '/api/health/live' });
    expect(a.headers['x-request-id']).not.toBe(b.headers['x-request-id']);
    // Error answers carry it too.
    const missing = await app.inject({ method: 'GET', url: '/api/nu-exista', headers: { 'x-request-id': 'cerere-1' } });
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['x-request-id']).toBe('cerere-1');
  });
});

describe('graceful shutdown (server/start.ts, as server/server.ts starts the app)', () => {
  let child: ChildProcess | null = null;
  afterAll(() => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
  });

  it('a request in flight when SIGTERM arrives completes; then the process exits 0', async () => {
    child = spawn(process.execPath, ['--import', 'tsx', 'tests/server/fixtures/slow-server.ts'], {
      cwd: root,
      env: { PATH: process.env.PATH, DATA_DIR: ':memory:', PORT: '0', HOST: '127.0.0.1', SERVE_STATIC: '0', LOG: '0', SLOW_MS: '1500', SHUTDOWN_TIMEOUT_MS: '10000' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const proc = child;
    const exited = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
    let out = '';
    const seen = (pattern: RegExp) =>
      new Promise<RegExpMatchArray>((resolve, reject) => {
        const check = () => {
          const match = pattern.exec(out);
          if (match) resolve(match);
        };
        proc.stdout!.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          check();
        });
        proc.on('exit', () => reject(new Error(`exited before ${pattern}: ${out}`)));
        check();
      });
    const port = Number((await seen(/listening: (\d+)/))[1]);
    const inFlight = fetch(`http://127.0.0.1:${port}/__slow`, { headers: { connection: 'close' } });
    await seen(/slow: started/);
    proc.kill('SIGTERM');
    const res = await inFlight;
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ message: 'gata', payload: null });
    expect(await exited).toBe(0);
    // Closed: nobody answers on that port any more.
    await expect(fetch(`http://127.0.0.1:${port}/api/health/live`)).rejects.toThrow();
  }, 60_000);
});
