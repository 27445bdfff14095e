/**
 * Issue 31: CAEN Rev.3 replaces Rev.2. A code's id carries its revision, so a stored Rev.2 code never
 * takes the meaning of the Rev.3 class with the same digits (4791); requests not yet sent move to
 * Rev.3 where the correspondence is one-to-one; a code that split waits for the applicant's choice
 * (flagged for operators); a sent dossier keeps its codes, with their Rev.3 equivalents shown.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { eq } from 'drizzle-orm';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { caenId, codesInCurrentRevision, CURRENT_CAEN_REVISION, PREVIOUS_CAEN_REVISION } from '../../server/db/caen';
import { moveCodesToCurrentRevision } from '../../server/registration/store';
import { registrationRequests } from '../../server/db/schema';
import { auth, placeAtStep, registerUser, requestRowOf, testApp, type RegisteredUser } from './helpers';

let app: FastifyInstance;
beforeAll(async () => {
  app = await testApp();
});
afterAll(() => app.close());

const rev3 = (code: string) => caenId(CURRENT_CAEN_REVISION, code);
const rev2 = (code: string) => caenId(PREVIOUS_CAEN_REVISION, code);
const STEP = 'requesting-company-step-7';
const CNP = '1900515125806';

async function withCodes(codes: number[], extra: Record<string, unknown> = {}): Promise<RegisteredUser> {
  const user = await registerUser(app);
  await placeAtStep(app, user, STEP, { activity: 'design-grafic', codes, ...extra });
  const row = await requestRowOf(app, user);
  await app.db.update(registrationRequests).set({ profile: { first_name: 'Ana', last_name: 'Popescu', personal_code: CNP } }).where(eq(registrationRequests.id, row.id));
  return user;
}
const codesOf = async (user: RegisteredUser) => (await requestRowOf(app, user)).formData.codes;

describe('moving stored requests to CAEN Rev.3', () => {
  it('replaces one-to-one codes, keeps split ones and sent dossiers as they are', async () => {
    const oneToOne = await withCodes([rev2('6201'), rev2('7311')]);
    const merged = await withCodes([rev2('6202'), rev2('6203')]);
    const split = await withCodes([rev2('7410'), rev2('6201')]);
    const sameDigits = await withCodes([rev2('4791')]);
    const sent = await withCodes([rev2('6201')], { submitted_at: '2024-12-20T10:00:00.000Z' });
    const current = await withCodes([rev3('6210')]);

    expect(await moveCodesToCurrentRevision(app.db)).toBeGreaterThanOrEqual(3);

    expect(await codesOf(oneToOne)).toEqual([rev3('6210'), rev3('7311')]);
    // 6202 and 6203 both became 6220: once.
    expect(await codesOf(merged)).toEqual([rev3('6220')]);
    // 7410 split over 7411–7414: it stays a Rev.2 code (the applicant chooses); 6201 moves.
    expect(await codesOf(split)).toEqual([rev2('7410'), rev3('6210')]);
    // Rev.2 4791 (internet retail) split too: never silently Rev.3 4791 (intermediation).
    expect(await codesOf(sameDigits)).toEqual([rev2('4791')]);
    expect(await codesOf(sent)).toEqual([rev2('6201')]);
    expect(await codesOf(current)).toEqual([rev3('6210')]);
    // Running again changes nothing.
    expect(await moveCodesToCurrentRevision(app.db)).toBe(0);
  });

  it('codesInCurrentRevision leaves unknown values and current codes alone', () => {
    const targets = new Map([[rev2('6201'), [rev3('6210')]], [rev2('7410'), [rev3('7411'), rev3('7412')]]]);
    expect(codesInCurrentRevision([rev3('6210')], targets)).toBeNull();
    expect(codesInCurrentRevision([rev2('7410')], targets)).toBeNull();
    expect(codesInCurrentRevision([rev2('6201'), rev3('6210')], targets)).toEqual([rev3('6210')]);
  });

  it('migration 0013 renumbers the Rev.2 classes and the requests that hold them before Rev.3 is loaded', async () => {
    // The migrations up to 0012 in a folder of their own, a request with Rev.2 ids as stored before issue 31, then 0013.
    const source = path.resolve('server/db/migrations');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'migrations-'));
    fs.mkdirSync(path.join(dir, 'meta'));
    const journal = JSON.parse(fs.readFileSync(path.join(source, 'meta/_journal.json'), 'utf8')) as { entries: Array<{ idx: number; tag: string }> };
    for (const e of journal.entries) fs.copyFileSync(path.join(source, `${e.tag}.sql`), path.join(dir, `${e.tag}.sql`));
    const write = (upTo: number) =>
      fs.writeFileSync(path.join(dir, 'meta/_journal.json'), JSON.stringify({ ...journal, entries: journal.entries.filter((e) => e.idx <= upTo) }));
    const client = new PGlite();
    try {
      const db = drizzle(client);
      write(12);
      await migrate(db, { migrationsFolder: dir });
      await client.exec(`
        insert into partners (slug, name) values ('p', 'P');
        insert into users (email, phone, password_hash, registration_type, partner_id, frontend_id) values ('a@b.ro', '0712345678', 'x', 2, 1, 'f');
        insert into caen_codes (id, code, name, section, revision, search_name) values (6201, '6201', 'Soft', 'J', 'CAEN Rev.2', 'soft'), (4791, '4791', 'Comerț prin internet', 'G', 'CAEN Rev.2', 'comert');
        insert into registration_requests (user_id, registration_type, step, form_data) values (1, 2, 's', '{"codes":[4791,6201],"x":1}');
      `);
      write(99);
      await migrate(db, { migrationsFolder: dir });
      const ids = await client.query<{ id: number }>('select id from caen_codes order by id');
      expect(ids.rows.map((r) => r.id)).toEqual([24791, 26201]);
      const request = await client.query<{ form_data: Record<string, unknown> }>('select form_data from registration_requests');
      expect(request.rows[0].form_data).toEqual({ codes: [24791, 26201], x: 1 });
    } finally {
      await client.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
    // A database of its own, migrated from nothing twice: seconds alone, more while the other files run beside it.
  }, 90_000);
});

describe('a split Rev.2 code at the overview', () => {
  const post = (user: RegisteredUser, url: string, payload: object) => app.inject({ method: 'POST', url, payload, headers: auth(user.token) });

  it('is shown with its Rev.3 choices, kept while other codes change, and must be replaced before sending', async () => {
    const user = await withCodes([rev2('7410'), rev3('7311')]);
    const overview = (await app.inject({ method: 'GET', url: '/api/registration/overview', headers: auth(user.token) })).json().payload;
    expect(overview.codes[0]).toMatchObject({ id: rev2('7410'), code: '7410', revision: 'CAEN Rev.2', is_primary: 1 });
    expect(overview.codes[0].replaced_by.map((c: { code: string }) => c.code)).toEqual(['7411', '7412', '7413', '7414']);
    expect(overview.codes[1]).toEqual({ id: rev3('7311'), code: '7311', name: 'Activități ale agențiilor de publicitate', is_primary: 0, revision: 'CAEN Rev.3' });

    // Other codes may change meanwhile; the old code keeps its place.
    const kept = await post(user, '/api/registration/update/form-data', { codes: [rev2('7410'), rev3('7311'), rev3('7420')] });
    expect(kept.statusCode, kept.body).toBe(200);

    const send = await post(user, '/api/registration/send', { current_step_identifier: STEP, address_type: 1 });
    expect(send.statusCode).toBe(422);
    expect(send.json().payload.codes[0]).toMatch(/7410.*CAEN Rev\.2/);
    expect((await requestRowOf(app, user)).step).toBe(STEP);

    const chosen = await post(user, '/api/registration/update/form-data', { codes: [rev3('7412'), rev3('7311'), rev3('7420')] });
    expect(chosen.statusCode).toBe(200);
    const sent = await post(user, '/api/registration/send', { current_step_identifier: STEP, address_type: 1 });
    expect(sent.statusCode, sent.body).toBe(200);
  });

  it('cannot be added back once replaced', async () => {
    const user = await withCodes([rev3('7412')]);
    const res = await post(user, '/api/registration/update/form-data', { codes: [rev3('7412'), rev2('7410')] });
    expect(res.statusCode).toBe(422);
    expect(res.json().payload.codes).toEqual(['Codul CAEN ales nu există.']);
  });
});
