import type { FastifyInstance } from 'fastify';
import { inject } from 'vitest';
import { buildApp } from '../../server/app';
import { loadConfig, type AppConfig } from '../../server/config';
import { openDatabase, type Database } from '../../server/db';
import type { OutboxMail, Partner, SessionUser } from '../../src/core/api-types';
import { uniqueAddress } from '../unique-email';

const globalState = globalThis as unknown as { __testDatabase?: Promise<Database> };

/**
 * One database per test worker (PGlite in memory, or the PostgreSQL of DATABASE_URL), migrated and
 * seeded once; test files share it (vitest `isolate: false` for the server project), so every test
 * works with its own fresh users.
 */
export function testDatabase(): Promise<Database> {
  globalState.__testDatabase ??= openDatabase({ databaseUrl: databaseUrl(), dataDir: ':memory:' });
  return globalState.__testDatabase;
}

/** The per-run PostgreSQL database made by global-setup.ts, or null for PGlite. */
export function databaseUrl(): string | null {
  return inject('databaseUrl');
}

export const CALLBACK_ORIGIN = 'https://contabil.partener.ro';

export function testConfig(overrides: Partial<AppConfig> = {}): AppConfig {
  return {
    ...loadConfig({
      NODE_ENV: 'test',
      DATA_DIR: ':memory:',
      PUBLIC_URL: 'http://localhost:3000',
      AUTH_CALLBACK_ORIGINS: CALLBACK_ORIGIN,
      SERVE_STATIC: '0',
      // Every test registers its own users from 127.0.0.1: the per-address limits stay out of the way
      // (the limit tests set them low explicitly).
      REGISTER_LIMIT_PER_HOUR: '1000000',
      FORGOT_PASSWORD_LIMIT_PER_HOUR: '1000000',
      IDENTITY_SESSION_LIMIT_PER_HOUR: '1000000',
      UPLOAD_LIMIT_PER_HOUR: '1000000',
      COMPANY_LOOKUP_LIMIT_PER_HOUR: '1000000',
      // The retention job's schedule stays off: tests run it themselves (tests/server/retention*.test.ts).
      RETENTION_JOB: '0',
    }),
    databaseUrl: databaseUrl(),
    // TEST_STORAGE=s3: files in the run's s3rver bucket instead of memory.
    s3: inject('s3'),
    ...overrides,
  };
}

export async function testApp(overrides: Partial<AppConfig> = {}): Promise<FastifyInstance> {
  // checkAnswers: an answer its response schema would change (a field dropped) fails the test's call with a 500.
  const app = await buildApp(testConfig(overrides), { database: await testDatabase(), checkAnswers: true });
  await app.ready();
  return app;
}

/** A fresh address (tests/unique-email.ts). */
export function uniqueEmail(prefix = 'user'): string {
  return uniqueAddress(prefix);
}

export const auth = (token: string) => ({ authorization: `Bearer ${token}`, 'x-requested-with': 'XMLHttpRequest' });

export async function partnerBySlug(app: FastifyInstance, slug: string): Promise<Partner> {
  const res = await app.inject({ method: 'GET', url: '/api/partner/index' });
  const partner = (res.json().payload as Partner[]).find((p) => p.slug === slug);
  if (!partner) throw new Error(`no partner ${slug}`);
  return partner;
}

export interface RegisteredUser {
  email: string;
  password: string;
  user: SessionUser;
  token: string;
}

export async function registerUser(
  app: FastifyInstance,
  options: { type?: 1 | 2; partner?: string; email?: string; password?: string; cookies?: { key: string; value: string }[] } = {},
): Promise<RegisteredUser> {
  const email = options.email ?? uniqueEmail();
  const password = options.password ?? 'parola-sigura';
  const partner = await partnerBySlug(app, options.partner ?? 'neafiliat');
  const res = await app.inject({
    method: 'POST',
    url: '/api/register',
    payload: {
      email,
      password,
      phone: '0712345678',
      referral_code: null,
      cookies: options.cookies ?? [],
      marketing_accepted: true,
      registration_type: options.type ?? 2,
      partner_id: partner.id,
    },
  });
  if (res.statusCode !== 200) throw new Error(`register failed: ${res.statusCode} ${res.body}`);
  const user = res.json().payload as SessionUser;
  return { email, password, user, token: user.access_token };
}

export async function mailsTo(app: FastifyInstance, email: string): Promise<OutboxMail[]> {
  const res = await app.inject({ method: 'GET', url: `/api/dev/outbox?to=${encodeURIComponent(email)}` });
  return res.json().payload as OutboxMail[];
}

/** The user's request row in the flow of their registration type, as the database holds it. */
export async function requestRowOf(app: FastifyInstance, user: RegisteredUser) {
  const { registrationRequests } = await import('../../server/db/schema');
  const { eq, and } = await import('drizzle-orm');
  const [row] = await app.db
    .select()
    .from(registrationRequests)
    .where(and(eq(registrationRequests.userId, user.user.id), eq(registrationRequests.registrationType, user.user.registration_type)));
  return row;
}

/** What a step rule is called with besides its body and files: the user's partner, the rule's step and the flow, resolved for the request. */
export async function ruleContextOf(app: FastifyInstance, user: RegisteredUser, rule: string) {
  const { users } = await import('../../server/db/schema');
  const { eq } = await import('drizzle-orm');
  const { loadRequest } = await import('../../server/registration/serialize');
  const [row] = await app.db.select().from(users).where(eq(users.id, user.user.id));
  const { partner, prices, resolved } = await loadRequest(app, row, app.flows.byType[user.user.registration_type as 1 | 2]);
  const step = resolved.steps.find((s) => s.rule === rule);
  if (!step) throw new Error(`no step with the rule ${rule}`);
  return { partner, prices, step, flow: resolved };
}

/**
 * Test fixture: puts the user's request at a step (and merges form data) by writing the database,
 * for steps whose predecessors belong to later issues. Never exposed over HTTP.
 */
export async function placeAtStep(app: FastifyInstance, user: RegisteredUser, step: string, formData: Record<string, unknown> = {}) {
  const { registrationRequests } = await import('../../server/db/schema');
  const { eq, and } = await import('drizzle-orm');
  const type = user.user.registration_type;
  await app.inject({ method: 'GET', url: type === 1 ? '/api/registration/existing/open' : '/api/registration/open', headers: auth(user.token) });
  const where = and(eq(registrationRequests.userId, user.user.id), eq(registrationRequests.registrationType, type));
  const [row] = await app.db.select().from(registrationRequests).where(where);
  await app.db
    .update(registrationRequests)
    .set({ step, formData: { ...row.formData, ...formData }, version: row.version + 1 })
    .where(where);
}

/**
 * `run`'s answer and the number of database queries the app made meanwhile (PGlite and node-postgres
 * both go through `$client.query`).
 */
export async function countedQueries<T>(app: FastifyInstance, run: () => Promise<T>): Promise<[T, number]> {
  type Query = (...args: unknown[]) => unknown;
  const client = (app.db as unknown as { $client: { query: Query } }).$client;
  const original = client.query;
  let count = 0;
  client.query = function (this: unknown, ...args: unknown[]) {
    count++;
    return original.apply(this, args);
  };
  try {
    const result = await run();
    return [result, count];
  } finally {
    client.query = original;
  }
}
