import pg from 'pg';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/app';
import { openDatabase, type Database } from '../../server/db';
import { fileDeletions, files, identitySessions, identityUploads, idvSimulatorSessions, jobRuns, outbox, retainedRecords, users } from '../../server/db/schema';
import { runRetention, type RetentionReport } from '../../server/privacy/retention';
import { addTimelineItem } from '../../server/registration/timeline';
import { auth, databaseUrl, mailsTo, requestRowOf, testConfig, type RegisteredUser } from './helpers';

/**
 * Shared by the retention*.test.ts files. The job acts on every account of the database, so each of
 * them has a database of its own: PGlite in memory, or a PostgreSQL database made next to the run's
 * and dropped after.
 */

export const OPS_TOKEN = 'retention-ops-token-0123456789';
export const OPERATOR = 'Ana Operator';
export const DAY = 24 * 60 * 60 * 1000;
export const later = (from: Date, days: number, hours = 0) => new Date(from.getTime() + days * DAY + hours * 60 * 60 * 1000);

const runUrl = databaseUrl();

/** The file's own PostgreSQL database (the run's name + `suffix`: files may run at the same time), or null for PGlite. */
function ownDatabaseUrl(suffix: string): URL | null {
  const url = runUrl ? new URL(runUrl) : null;
  if (url) url.pathname = `${url.pathname}${suffix}`;
  return url;
}

async function adminQuery(text: string) {
  const client = new pg.Client({ connectionString: runUrl! });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

/** A retention*.test.ts file's database, its app (with the ops API and an instant identity simulator) and the database's address (null: PGlite). */
export interface RetentionApp {
  database: Database;
  app: FastifyInstance;
  ownUrl: URL | null;
}

/**
 * The retention job (issue 32, server/privacy/retention.ts) with a moved clock: every run is given an
 * `asOf` days ahead, the data is as the app wrote it now. The job acts on every account of the
 * database, so each retention file has a database of its own (`suffix`: the run's database name +
 * it, or PGlite in memory), made before the file's tests (handed to `use`), emptied before each
 * test (the other files' accounts are never touched) and dropped after. Periods: the defaults
 * (unfinished 180 days, warning 14, identity photos 30, lost 30).
 */
export function retentionApp(suffix: string, use: (made: RetentionApp) => void) {
  const ownUrl = ownDatabaseUrl(suffix);
  let made: RetentionApp | undefined;
  beforeAll(async () => {
    if (ownUrl) await adminQuery(`create database ${ownUrl.pathname.slice(1)}`);
    const database = await openDatabase({ databaseUrl: ownUrl?.toString() ?? null, dataDir: ':memory:' });
    const app = await buildApp(testConfig({ opsToken: OPS_TOKEN, idvSimulatorDelayMs: 0, databaseUrl: ownUrl?.toString() ?? null }), { database, checkAnswers: true });
    await app.ready();
    made = { database, app, ownUrl };
    use(made);
  }, 120_000);
  afterAll(async () => {
    await made?.app.close();
    await made?.database.close();
    if (ownUrl) await adminQuery(`drop database if exists ${ownUrl.pathname.slice(1)} with (force)`);
  });
  beforeEach(() => emptyTables(made!.app));
  return {
    retention: (asOf: Date, dryRun = false) => runRetention(made!.app, { asOf, dryRun }),
    userExists: (user: RegisteredUser) => accountExists(made!.app, user),
    openRequest: (user: RegisteredUser) => openRequestOf(made!.app, user),
    warningsTo: (email: string) => retentionWarningsTo(made!.app, email),
  };
}

/** Before each test: no account, mail, kept record, pending deletion, simulator session or job run. */
async function emptyTables(app: FastifyInstance) {
  await app.db.delete(users);
  await app.db.delete(outbox);
  await app.db.delete(retainedRecords);
  await app.db.delete(fileDeletions);
  await app.db.delete(idvSimulatorSessions);
  await app.db.delete(jobRuns);
}

export const linesOf = (report: RetentionReport, email: string) => report.lines.filter((l) => l.email === email);
export const accountExists = async (app: FastifyInstance, user: RegisteredUser) => (await app.db.select({ id: users.id }).from(users).where(eq(users.id, user.user.id))).length === 1;
export const retentionWarningsTo = async (app: FastifyInstance, email: string) => (await mailsTo(app, email)).filter((m) => m.subject === 'Contul tău Ghișeu va fi șters în curând');
export const roDate = (date: Date) => new Intl.DateTimeFormat('ro-RO', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'Europe/Bucharest' }).format(date);

export async function openRequestOf(app: FastifyInstance, user: RegisteredUser) {
  const url = user.user.registration_type === 1 ? '/api/registration/existing/open' : '/api/registration/open';
  expect((await app.inject({ method: 'GET', url, headers: auth(user.token) })).statusCode).toBe(200);
}

export async function loginAs(app: FastifyInstance, user: RegisteredUser) {
  const res = await app.inject({ method: 'POST', url: '/api/login', payload: { email: user.email, password: user.password } });
  expect(res.statusCode).toBe(200);
  return res;
}

/** The storage keys of the user's identity photos. */
export async function photoKeysOf(app: FastifyInstance, userId: number): Promise<string[]> {
  const rows = await app.db
    .select({ key: files.storageKey })
    .from(identityUploads)
    .innerJoin(files, eq(files.id, identityUploads.fileId))
    .innerJoin(identitySessions, eq(identitySessions.id, identityUploads.identitySessionId))
    .where(eq(identitySessions.userId, userId));
  return rows.map((r) => r.key);
}

export async function finalize(target: FastifyInstance, user: RegisteredUser) {
  await addTimelineItem(target, await requestRowOf(target, user), { type: 'finalized' }, { staffUserId: null, actor: OPERATOR });
}
