import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { buildApp } from '../../server/app';
import type { AppConfig } from '../../server/config';
import { testConfig, testDatabase } from './helpers';

/** The Redis of the tests: REDIS_URL (`.ci/run`, `npm run test:pg`), else the machine's own on 127.0.0.1:6379. */
export const REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379';

/**
 * Whether the Redis tests run: always when REDIS_URL is set (an unreachable server then fails them);
 * without it, only when a Redis answers on 127.0.0.1:6379.
 */
export async function redisAvailable(): Promise<boolean> {
  if (process.env.REDIS_URL) return true;
  const probe = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, connectTimeout: 1000 });
  try {
    await probe.connect();
    return (await probe.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    probe.disconnect();
  }
}

export const REDIS_SKIP_REASON = `skipped: no Redis answers at ${REDIS_URL} (start one, or set REDIS_URL)`;

/** A key prefix of this test run alone (runs and files never share counters); `deleteKeys` removes its keys. */
export function redisRunPrefix(name: string): string {
  return `test:${name}:${process.pid}:${Date.now().toString(36)}${randomBytes(3).toString('hex')}:`;
}

export async function deleteKeys(prefix: string): Promise<number> {
  const redis = new Redis(REDIS_URL);
  try {
    let deleted = 0;
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
      cursor = next;
      if (keys.length) deleted += await redis.del(...keys);
    } while (cursor !== '0');
    return deleted;
  } finally {
    redis.disconnect();
  }
}

/** The test app with its limits (and ANAF cache) in Redis under `prefix` (the tests' Redis unless `overrides.redisUrl`). */
export async function redisTestApp(prefix: string, overrides: Partial<AppConfig> = {}): Promise<FastifyInstance> {
  const app = await buildApp(testConfig({ redisUrl: REDIS_URL, ...overrides }), { database: await testDatabase(), redisKeyPrefix: prefix, checkAnswers: true });
  await app.ready();
  return app;
}
