import { Writable, type Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { eq } from 'drizzle-orm';
import { buildApp } from '../../server/app';
import {
  cities,
  mailingAddresses,
  payments,
  registrationRequests,
  requestDocuments,
  staffUsers,
  timelineItems,
  users,
} from '../../server/db/schema';
import { saveFile } from '../../server/files/files';
import { withoutLinks } from '../../server/privacy/export-data';
import { exportZip } from '../../server/privacy/export-zip';
import { USER_EXPORT_MESSAGES } from '../../server/routes/user-export';
import { recordAudit } from '../../server/staff/audit';
import { auth, placeAtStep, registerUser, requestRowOf, testConfig, testDatabase } from './helpers';
import { sessionWithUploads } from './identity-helpers';
import { readZip } from './zip-reader';

const URL = '/api/user/export';
const CNP = '1900101400011';
const PDF = Buffer.from('%PDF-1.4\n% diploma de test\n%%EOF\n');

let log = '';
const logStream = new Writable({
  write(chunk: Buffer, _encoding, done) {
    log += chunk.toString();
    done();
  },
});

let app: FastifyInstance;
beforeAll(async () => {
  app = await buildApp(testConfig(), { database: await testDatabase(), checkAnswers: true, logStream });
  await app.ready();
});
afterAll(() => app.close());

const exportOf = (token?: string) => app.inject({ method: 'GET', url: URL, headers: token ? auth(token) : {} });

/** A user with a request (form data, profile), identity photos, a document, an address, a timeline, a payment and staff accesses. */
async function fullUser(marker: string) {
  const user = await registerUser(app);
  await app.inject({ method: 'GET', url: '/api/registration/open', headers: auth(user.token) });
  const opened = await requestRowOf(app, user);
  await placeAtStep(app, user, opened.step, { company_name: `Firma ${marker}`, personal_code: CNP });
  const request = await requestRowOf(app, user);
  await app.db
    .update(registrationRequests)
    .set({ profile: { first_name: `Ion${marker}`, last_name: 'Popescu', personal_code: CNP } })
    .where(eq(registrationRequests.id, request.id));

  const { uploads } = await sessionWithUploads(app, user.token);
  const pdf = await saveFile(app, user.user.id, { data: PDF, originalName: '../../etc/diploma mea.pdf', contentType: 'application/pdf', clean: true });
  await app.db.insert(requestDocuments).values({ requestId: request.id, fileId: pdf.id, kind: 'diploma' });

  const [city] = await app.db.select().from(cities).limit(1);
  await app.db.insert(mailingAddresses).values({
    userId: user.user.id,
    contactFirstName: `Contact${marker}`,
    contactLastName: 'Popescu',
    countyId: city.countyId,
    cityId: city.id,
    street: `Strada ${marker}`,
    number: '7',
  });
  await app.db.insert(timelineItems).values({ requestId: request.id, type: 'document_review', date: '2026-01-05', data: { isDataComplete: true } });
  await app.db.insert(payments).values({
    id: `pay_${marker}_${user.user.id}`,
    requestId: request.id,
    provider: 'builtin',
    stripePriceId: 'price_test',
    amountBani: 4900,
    currency: 'ron',
    status: 'paid',
    paidAt: new Date(),
  });
  const [staff] = await app.db
    .insert(staffUsers)
    .values({ email: `operator-${marker}-${user.user.id}@ghiseu.test`, passwordHash: 'x', role: 'operator' })
    .returning();
  await recordAudit(app.db, { staffUserId: staff.id, action: 'dossier.read', requestId: request.id, before: { secret: 'inainte' } });
  await recordAudit(app.db, { staffUserId: null, action: 'timeline.add', requestId: request.id });
  await recordAudit(app.db, { staffUserId: null, actor: 'maria', action: 'file.read', requestId: request.id });
  return { user, request, uploads, pdf, staff };
}

function unzip(body: Buffer) {
  const entries = readZip(body);
  const json = JSON.parse(entries.find((e) => e.name === 'date.json')!.data.toString('utf8'));
  return { entries, json };
}

describe('GET /api/user/export', () => {
  let alice: Awaited<ReturnType<typeof fullUser>>;
  let bob: Awaited<ReturnType<typeof fullUser>>;
  beforeAll(async () => {
    alice = await fullUser('alice');
    bob = await fullUser('bob');
  });

  it('answers one zip: date.json with every category, then every stored file as the owner downloads it', async () => {
    log = '';
    const res = await exportOf(alice.user.token);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="date-ghiseu-\d{4}-\d{2}-\d{2}\.zip"$/);
    // Streamed: the length is not known up front.
    expect(res.headers['content-length']).toBeUndefined();

    const { entries, json } = unzip(res.rawPayload);
    expect(entries[0].name).toBe('date.json');
    expect(json.product).toBe(app.config.productName);
    expect(json.account).toMatchObject({
      email: alice.user.email,
      phone: '0712345678',
      registration_type: 2,
      partner: { slug: 'neafiliat' },
      marketing: { accepted: true, unsubscribed_at: null },
    });
    expect(json.account.created_at).toEqual(expect.any(String));
    expect(json.account).not.toHaveProperty('password_hash');
    // The registration's checkbox: the terms with the privacy policy, and marketing mails, with the texts' version.
    expect(json.consents).toEqual([
      expect.objectContaining({ kind: 'terms', version: expect.stringMatching(/^termeni .*\([0-9a-f]{12}\); confidentialitate .*\([0-9a-f]{12}\)$/), withdrawn_at: null }),
      expect.objectContaining({ kind: 'marketing', withdrawn_at: null }),
    ]);
    expect(json.sessions.length).toBeGreaterThan(0);
    expect(JSON.stringify(json.sessions)).not.toMatch(/hash/i);

    const request = json.requests.find((r: { id: number }) => r.id === alice.request.id);
    expect(request.form_data).toMatchObject({ company_name: 'Firma alice', personal_code: CNP });
    expect(request.profile).toMatchObject({ first_name: 'Ionalice' });
    expect(request.mailing_address).toMatchObject({ contact_first_name: 'Contactalice', street: 'Strada alice', number: '7' });
    expect(request.timeline).toEqual([expect.objectContaining({ type: 'document_review', date: '2026-01-05', data: { isDataComplete: true } })]);
    expect(request.payments).toEqual([expect.objectContaining({ amount_bani: 4900, currency: 'ron', status: 'paid' })]);
    expect(request.payments[0]).not.toHaveProperty('id');
    expect(request.documents).toEqual([expect.objectContaining({ kind: 'diploma', file: `fisiere/${alice.pdf.id}-diploma.pdf` })]);

    expect(json.identity_sessions).toHaveLength(1);
    expect(json.identity_sessions[0].uploads.map((u: { context: string }) => u.context).sort()).toEqual(['document-back', 'document-front', 'face']);
    expect(json.identity_sessions[0]).not.toHaveProperty('session_id');

    // The mails: the verification mail of the registration, its links replaced.
    expect(json.mails.length).toBeGreaterThan(0);
    expect(json.mails.every((m: { to: string }) => m.to === alice.user.email)).toBe(true);
    expect(JSON.stringify(json.mails)).not.toMatch(/https?:\/\//);

    // Who accessed the dossier: the operator's e-mail and the shared token (null), never the payloads.
    expect(json.access_log).toEqual([
      { who: alice.staff.email, action: 'dossier.read', at: expect.any(String), request_id: alice.request.id },
      { who: null, action: 'timeline.add', at: expect.any(String), request_id: alice.request.id },
      { who: 'maria', action: 'file.read', at: expect.any(String), request_id: alice.request.id },
    ]);
    expect(JSON.stringify(json)).not.toContain('inainte');

    // Every file: listed in date.json and in the zip, with the bytes the owner downloads.
    const ids = [...alice.uploads.map((u) => u.file_id), alice.pdf.id];
    expect(json.files).toHaveLength(ids.length);
    const kinds = json.files.map((f: { kind: string }) => f.kind).sort();
    expect(kinds).toEqual(['diploma', 'id_back', 'id_front', 'selfie']);
    for (const file of json.files as { name: string; original_name: string; missing?: boolean }[]) {
      expect(file.name).toMatch(/^fisiere\/\d+-[a-z_]+\.(png|jpg|webp|pdf)$/);
      expect(file.missing).toBeUndefined();
      const id = Number(file.name.slice('fisiere/'.length).split('-')[0]);
      expect(ids).toContain(id);
      const download = await app.inject({ method: 'GET', url: `/api/files/${id}`, headers: auth(alice.user.token) });
      expect(download.statusCode).toBe(200);
      const entry = entries.find((e) => e.name === file.name);
      expect(entry?.data.equals(download.rawPayload)).toBe(true);
    }
    expect(json.files.find((f: { kind: string }) => f.kind === 'diploma').original_name).toBe('diploma mea.pdf');
    expect(entries).toHaveLength(ids.length + 1);

    // Nothing of the other user.
    const text = JSON.stringify(json);
    expect(text).not.toContain(bob.user.email);
    expect(text).not.toContain('bob');
    expect(text).not.toContain(bob.staff.email);
    for (const u of bob.uploads) expect(entries.some((e) => e.name.startsWith(`fisiere/${u.file_id}-`))).toBe(false);

    // The log holds nothing personal.
    expect(log).toContain('/api/user/export');
    expect(log).not.toContain(alice.user.email);
    expect(log).not.toContain(CNP);
  });

  it('answers at most 3 exports per hour per account (429 with a Romanian message), other accounts unaffected', async () => {
    const user = await registerUser(app);
    for (let i = 0; i < 3; i++) expect((await exportOf(user.token)).statusCode).toBe(200);
    const fourth = await exportOf(user.token);
    expect(fourth.statusCode).toBe(429);
    expect(fourth.json()).toMatchObject({ message: USER_EXPORT_MESSAGES.tooMany });
    expect(Number(fourth.headers['retry-after'])).toBeGreaterThan(0);
    const other = await registerUser(app);
    expect((await exportOf(other.token)).statusCode).toBe(200);
  });

  it('marks a file whose bytes are missing and still completes', async () => {
    const user = await registerUser(app);
    const { uploads } = await sessionWithUploads(app, user.token);
    const lost = uploads[1].file_id;
    const { files } = await import('../../server/db/schema');
    const [row] = await app.db.select().from(files).where(eq(files.id, lost));
    await app.storage.delete(row.storageKey);

    const res = await exportOf(user.token);
    expect(res.statusCode).toBe(200);
    const { entries, json } = unzip(res.rawPayload);
    const listed = json.files.find((f: { name: string }) => f.name.startsWith(`fisiere/${lost}-`));
    expect(listed).toMatchObject({ missing: true, kind: 'id_back' });
    expect(entries.some((e) => e.name === listed.name)).toBe(false);
    expect(entries).toHaveLength(3); // date.json and the two files still stored
  });

  it('streams: the zip starts before the files are read, one file read at a time', async () => {
    const user = await registerUser(app);
    await sessionWithUploads(app, user.token);
    const [row] = await app.db.select().from(users).where(eq(users.id, user.user.id));
    const original = app.storage.get.bind(app.storage);
    let reading = 0;
    let most = 0;
    const get = vi.spyOn(app.storage, 'get').mockImplementation(async (key: string) => {
      most = Math.max(most, ++reading);
      try {
        return await original(key);
      } finally {
        reading--;
      }
    });
    try {
      const stream: Readable = await exportZip(app, row, app.log);
      expect(get).not.toHaveBeenCalled();
      const chunks: Buffer[] = [];
      for await (const chunk of stream) chunks.push(chunk as Buffer);
      expect(get).toHaveBeenCalledTimes(3);
      expect(most).toBe(1);
      const names = readZip(Buffer.concat(chunks)).map((e) => e.name);
      expect(names[0]).toBe('date.json');
      expect(names).toHaveLength(4);
    } finally {
      get.mockRestore();
    }
  });

  it('replaces links in mail subjects', () => {
    expect(withoutLinks('Confirmă: https://ghiseu.ro/verifica?token=abc și www.exemplu.ro/x')).toBe('Confirmă: [link] și [link]');
  });
});
