import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { eq } from 'drizzle-orm';
import { timelineItems, users } from '../../server/db/schema';
import type { HttpError } from '../../server/lib/http-errors';
import type { UserRow } from '../../server/lib/tokens';
import type { RequestRow } from '../../server/registration/model';
import { finalizeRequest, markLost, markRequestPaid, mergeProfile, moveRequest, openRequest, saveOverview } from '../../server/registration/store';
import { addTimelineItem } from '../../server/registration/timeline';
import { placeAtStep, registerUser, requestRowOf, testApp, type RegisteredUser } from './helpers';

/**
 * Issue 15: the request store (server/registration/store.ts) is the only code that reads or writes
 * `registration_requests`, under one rule (a version check). Two writers of the same request: one
 * wins, the other gets nothing written (null → the route's 409), also what belongs with its write
 * (the user's stop_flow, a timeline item). Merges that do not depend on what was read (profile
 * fields, a payment) are re-applied on the newer version. Runs on PGlite and, with `npm run
 * test:pg`, on PostgreSQL, where the writers really run at the same time.
 */

let app: FastifyInstance;
beforeAll(async () => {
  app = await testApp();
});
afterAll(() => app.close());

const root = fileURLToPath(new URL('../..', import.meta.url));

function serverFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? serverFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

async function userRow(user: RegisteredUser): Promise<UserRow> {
  const [row] = await app.db.select().from(users).where(eq(users.id, user.user.id));
  return row;
}

async function freshRequest(type: 1 | 2 = 2): Promise<{ user: RegisteredUser; row: RequestRow }> {
  const user = await registerUser(app, { type });
  const row = await openRequest(app.db, await userRow(user), app.flows.byType[type]);
  return { user, row };
}

describe('the request store owns registration_requests', () => {
  /**
   * The modules that may query the table. The store (its writes in store.ts, its reads in
   * store-reads.ts) holds the one concurrency rule, the version check; the staff's searches and
   * pages across dossiers (server/staff/dossier-queries.ts) only read, so they cannot break it,
   * and they are the console's concern, not the applicant's request. server/db/schema/ defines the
   * table and the foreign keys to it.
   */
  const ALLOWED = ['server/registration/store.ts', 'server/registration/store-reads.ts', 'server/staff/dossier-queries.ts'];

  it('no server module but the store, the staff queries and the table definition queries the table; others may only name its row type', () => {
    // What cannot read or write: `import type …` and the row type (`typeof registrationRequests.$inferSelect`).
    const queries = (text: string) =>
      /\bregistrationRequests\b|\bregistration_requests\b/.test(text.replace(/^import type .*$/gm, '').replace(/typeof registrationRequests\.\$inferSelect/g, ''));
    const offenders = serverFiles(join(root, 'server'))
      .map((f) => relative(root, f).split(sep).join('/'))
      .filter((f) => !ALLOWED.includes(f) && !f.startsWith('server/db/schema/'))
      .filter((f) => queries(readFileSync(join(root, f), 'utf8')));
    expect(offenders).toEqual([]);
  });
});

describe('two writers on the same request', () => {
  it('both move from the same version at the same time: exactly one wins, the request holds only its data', async () => {
    const { user, row } = await freshRequest();
    const [a, b] = await Promise.all([
      moveRequest(app.db, row, { step: 'requesting-company-step-1', formData: { questionnaire: ['niciuna'], writer: 'a' } }),
      moveRequest(app.db, row, { step: 'requesting-company-step-2', formData: { questionnaire: ['niciuna'], writer: 'b' } }),
    ]);
    const winners = [a, b].filter((r): r is RequestRow => r !== null);
    expect(winners).toHaveLength(1);
    const stored = await requestRowOf(app, user);
    expect(stored).toMatchObject({ step: winners[0].step, formData: winners[0].formData, version: row.version + 1 });
  });

  it('a writer that read before another wrote gets null and writes nothing', async () => {
    const { user, row } = await freshRequest();
    const first = await moveRequest(app.db, row, { step: 'requesting-company-step-1', formData: { questionnaire: ['niciuna'] } });
    expect(first).not.toBeNull();
    expect(await saveOverview(app.db, row, { profile: { first_name: 'Ion' }, formData: { codes: [1] } })).toBeNull();
    const stored = await requestRowOf(app, user);
    expect(stored).toMatchObject({ step: 'requesting-company-step-1', formData: { questionnaire: ['niciuna'] }, profile: {}, version: row.version + 1 });
  });

  it('mark-as-lost losing the race leaves both the request and the user untouched (stop_flow stays false)', async () => {
    const { user, row } = await freshRequest();
    await moveRequest(app.db, row, { step: 'requesting-company-step-1', formData: { questionnaire: ['niciuna'] } });
    expect(await markLost(app.db, row, 'vinde-produse')).toBeNull();
    expect(await requestRowOf(app, user)).toMatchObject({ status: 'in_progress', lostReason: null });
    expect((await userRow(user)).stopFlow).toBe(false);
    // The same call on the current version writes both.
    const current = await requestRowOf(app, user);
    expect(await markLost(app.db, current, 'vinde-produse')).toMatchObject({ status: 'lost', lostReason: 'vinde-produse' });
    expect((await userRow(user)).stopFlow).toBe(true);
  });

  it('an operator finalizing a dossier that changed meanwhile gets 409 and no timeline item is written', async () => {
    const { user, row } = await freshRequest();
    await placeAtStep(app, user, 'requesting-company-step-9');
    const stale = row;
    await expect(addTimelineItem(app, stale, { type: 'finalized', date: '2026-11-20' }, { staffUserId: null })).rejects.toMatchObject({
      statusCode: 409,
      message: 'Dosarul a fost modificat între timp. Încearcă din nou.',
    } satisfies Partial<HttpError>);
    expect(await app.db.select().from(timelineItems).where(eq(timelineItems.requestId, row.id))).toEqual([]);
    expect((await requestRowOf(app, user)).status).toBe('in_progress');
    // finalizeRequest rolls back what was written alongside when the check fails.
    await expect(
      finalizeRequest(app.db, stale, async (tx) => tx.insert(timelineItems).values({ requestId: row.id, type: 'finalized', date: '2026-11-20', data: {} })),
    ).rejects.toMatchObject({ statusCode: 409 });
    expect(await app.db.select().from(timelineItems).where(eq(timelineItems.requestId, row.id))).toEqual([]);
  });

  it('profile merges (identity decision, home address) are kept whatever else was written meanwhile', async () => {
    const { user, row } = await freshRequest();
    await moveRequest(app.db, row, { step: 'requesting-company-step-1', formData: { questionnaire: ['niciuna'] } });
    const [one, two] = await Promise.all([
      mergeProfile(app.db, row.id, { first_name: 'Ion', last_name: 'Popescu' }),
      mergeProfile(app.db, row.id, { street: 'Str. Lungă', number: '3' }),
    ]);
    expect(one && two).toBeTruthy();
    const stored = await requestRowOf(app, user);
    expect(stored.profile).toEqual({ first_name: 'Ion', last_name: 'Popescu', street: 'Str. Lungă', number: '3' });
    expect(stored).toMatchObject({ step: 'requesting-company-step-1', version: row.version + 3 });
  });

  it('a payment marks the newest version paid even when the applicant moved the request meanwhile; a second time changes nothing', async () => {
    const { user, row } = await freshRequest();
    await moveRequest(app.db, row, { step: 'requesting-company-step-9', formData: { selected_stripe_id: 'x' } });
    const paidAt = new Date('2026-11-20T10:00:00Z');
    const result = await app.db.transaction((tx) => markRequestPaid(tx, row.id, paidAt, async (paid) => `${paid.step}-paid`));
    expect(result).toBe('paid');
    expect(await requestRowOf(app, user)).toMatchObject({ paid: true, paidAt, step: 'requesting-company-step-9-paid', formData: { selected_stripe_id: 'x' } });
    const again = await app.db.transaction((tx) => markRequestPaid(tx, row.id, new Date(), async () => 'elsewhere'));
    expect(again).toBe('already-paid');
    expect((await requestRowOf(app, user)).step).toBe('requesting-company-step-9-paid');
  });
});
