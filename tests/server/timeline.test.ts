import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { eq } from 'drizzle-orm';
import { registrationRequests, requestDocuments, timelineItems } from '../../server/db/schema';
import { resolveOpsToken } from '../../server/lib/ops-token';
import { OPS_MESSAGES } from '../../server/routes/ops';
import { STATUS_MESSAGES } from '../../server/routes/status';
import { TIMELINE_MESSAGES, todayInRomania, uniqueEntryNames } from '../../server/registration/timeline';
import { auth, registerUser, testApp, type RegisteredUser } from './helpers';
import { storedFileCount } from './storage-helpers';
import { detectImageType } from '../../server/lib/image-type';
import { JPEG, multipartPayload, type FilePart } from './identity-helpers';
import { readZip } from './zip-reader';

const OPS_TOKEN = 'ops-test-token-0123456789abcdef';
const ops = { authorization: `Bearer ${OPS_TOKEN}`, 'x-ops-actor': 'Ana Operator' };
const DOWNLOAD = '/api/registration/download/tradeRegisterDocuments';

let app: FastifyInstance;
beforeAll(async () => {
  app = await testApp({ opsToken: OPS_TOKEN });
});
afterAll(() => app.close());

const PDF = (text: string) => Buffer.from(`%PDF-1.4\n% ${text}\n1 0 obj << >> endobj\n%%EOF\n`, 'latin1');

async function applicant(type: 1 | 2 = 2): Promise<RegisteredUser & { requestId: number }> {
  const user = await registerUser(app, { type });
  const res = await app.inject({ method: 'GET', url: type === 2 ? '/api/registration/open' : '/api/registration/existing/open', headers: auth(user.token) });
  expect(res.statusCode).toBe(200);
  return { ...user, requestId: res.json().payload.id };
}

const open = async (user: RegisteredUser) => (await app.inject({ method: 'GET', url: '/api/registration/open', headers: auth(user.token) })).json().payload;

const addItem = (dossier: string | number, body: object, headers: Record<string, string> = ops) =>
  app.inject({ method: 'POST', url: `/api/ops/dossiers/${encodeURIComponent(String(dossier))}/timeline`, payload: body, headers });

async function attach(dossier: string | number, files: FilePart[], headers: Record<string, string> = ops) {
  const { payload, contentType } = await multipartPayload({}, files);
  return app.inject({ method: 'POST', url: `/api/ops/dossiers/${encodeURIComponent(String(dossier))}/documents`, payload, headers: { ...headers, 'content-type': contentType } });
}

const itemsOf = (requestId: number) => app.db.select().from(timelineItems).where(eq(timelineItems.requestId, requestId));
const documentsOf = (requestId: number) => app.db.select().from(requestDocuments).where(eq(requestDocuments.requestId, requestId));
const storedFiles = () => storedFileCount(app);

describe('status_timeline in the request', () => {
  it('is empty for a new request, with no trade register documents', async () => {
    const user = await applicant();
    const request = await open(user);
    expect(request.status_timeline).toEqual([]);
    expect(request.media.trade_register_documents).toEqual([]);
  });

  it('lists every item with its fields, by date then id', async () => {
    const user = await applicant();
    const added = [];
    for (const body of [
      { type: 'submitted', date: '2026-11-20', finalDossierSubmitted: true, estimated_date: '2026-11-27' },
      { type: 'document_review', date: '2026-11-10', isDataComplete: false, hasDiploma: false, shouldHaveDriverLicense: true, hasDriverLicense: false },
      { type: 'name_reservation', date: '2026-11-12', hasNameReservation: true, pfa_name: '  POPESCU ION PFA ' },
      { type: 'delayed', date: '2026-11-20', estimated_date: '2026-12-04', file_resubmission_date: '2026-11-25' },
      { type: 'rejected', date: '2026-11-26' },
    ]) {
      const res = await addItem(user.requestId, body);
      expect(res.statusCode, res.body).toBe(201);
      added.push(res.json().payload.item);
    }
    const [submitted, review, reservation, delayed, rejected] = added;
    // Optional fields are stored with their defaults: the item always carries every field of its type.
    expect(review).toEqual({
      id: review.id,
      type: 'document_review',
      date: '2026-11-10',
      isDataComplete: false,
      hasDiploma: false,
      shouldHaveDriverLicense: true,
      hasDriverLicense: false,
      shouldHaveCertificate: false,
      hasCertificate: true,
      shouldHaveAdditionalDocuments: false,
    });
    expect(reservation).toMatchObject({ type: 'name_reservation', hasNameReservation: true, pfa_name: 'POPESCU ION PFA' });

    const request = await open(user);
    expect(request.status_timeline).toEqual([review, reservation, submitted, delayed, rejected]);
    // Fields in the spec's order (JSONB would sort them its own way).
    expect(Object.keys(request.status_timeline[0])).toEqual([
      'id', 'type', 'date', 'isDataComplete', 'hasDiploma', 'shouldHaveDriverLicense', 'hasDriverLicense', 'shouldHaveCertificate', 'hasCertificate', 'shouldHaveAdditionalDocuments',
    ]);
    expect(request.status_timeline[2]).toEqual({ id: submitted.id, type: 'submitted', date: '2026-11-20', finalDossierSubmitted: true, estimated_date: '2026-11-27' });
    expect(request.status_timeline[3]).toEqual({ id: delayed.id, type: 'delayed', date: '2026-11-20', estimated_date: '2026-12-04', file_resubmission_date: '2026-11-25' });
    expect(request.status_timeline[4]).toEqual({ id: rejected.id, type: 'rejected', date: '2026-11-26' });
    // Nobody else sees them.
    expect((await open(await applicant())).status_timeline).toEqual([]);
  });
});

describe('ops API: the token', () => {
  it('is off (404) without OPS_TOKEN when DATA_DIR is :memory:', async () => {
    const off = await testApp();
    try {
      const res = await off.inject({ method: 'GET', url: '/api/ops/dossiers', headers: ops });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: OPS_MESSAGES.disabled, payload: null });
    } finally {
      await off.close();
    }
  });

  it('answers 401 without a token, with a wrong one and with an applicant token; nothing is written', async () => {
    const user = await applicant();
    const attempts: Record<string, string>[] = [{}, { authorization: 'Bearer wrong-token-wrong-token-1234' }, { authorization: `Bearer ${OPS_TOKEN}x` }, { authorization: OPS_TOKEN }, auth(user.token)];
    for (const headers of attempts) {
      const list = await app.inject({ method: 'GET', url: '/api/ops/dossiers', headers });
      expect(list.statusCode).toBe(401);
      expect(list.json().message).toBe(OPS_MESSAGES.unauthorized);
      expect((await addItem(user.requestId, { type: 'rejected' }, headers)).statusCode).toBe(401);
      expect((await attach(user.requestId, [{ name: 'files[0]', filename: 'a.pdf', data: PDF('a') }], headers)).statusCode).toBe(401);
      expect((await app.inject({ method: 'POST', url: `/api/ops/dossiers/${user.requestId}/finalize`, payload: {}, headers })).statusCode).toBe(401);
    }
    expect(await itemsOf(user.requestId)).toEqual([]);
    expect(await documentsOf(user.requestId)).toEqual([]);
  });

  it('is kept in DATA_DIR/ops-token (0600), made once; OPS_TOKEN wins; a short OPS_TOKEN is refused', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ops-token-'));
    try {
      const first = resolveOpsToken({ opsToken: null, dataDir: dir });
      expect(first).toMatch(/^[A-Za-z0-9_-]{40,}$/);
      const file = path.join(dir, 'ops-token');
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
      expect(fs.readFileSync(file, 'utf8').trim()).toBe(first);
      expect(resolveOpsToken({ opsToken: null, dataDir: dir })).toBe(first);
      expect(resolveOpsToken({ opsToken: OPS_TOKEN, dataDir: dir })).toBe(OPS_TOKEN);
      expect(resolveOpsToken({ opsToken: null, dataDir: ':memory:' })).toBeNull();
      expect(() => resolveOpsToken({ opsToken: 'short', dataDir: dir })).toThrow(/at least 16/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('ops API: dossiers', () => {
  it('lists dossiers with e-mail, name, type, step, status, paid, created_at and the number of items', async () => {
    const user = await applicant();
    await app.db.update(registrationRequests).set({ profile: { first_name: 'Ion', last_name: 'Popescu' } }).where(eq(registrationRequests.id, user.requestId));
    await addItem(user.requestId, { type: 'delayed', date: '2026-11-01' });
    await addItem(user.requestId, { type: 'delayed', date: '2026-11-02' });
    const res = await app.inject({ method: 'GET', url: `/api/ops/dossiers?search=${encodeURIComponent(user.email)}`, headers: ops });
    expect(res.statusCode).toBe(200);
    const rows = res.json().payload;
    expect(rows).toHaveLength(1);
    expect(rows[0]).toEqual({
      id: user.requestId,
      email: user.email,
      name: 'Popescu Ion',
      registration_type: 2,
      step: 'requesting-company-step-0',
      status: 'in_progress',
      paid: false,
      created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      timeline_items: 2,
    });
    const all = (await app.inject({ method: 'GET', url: '/api/ops/dossiers?limit=5', headers: ops })).json().payload;
    expect(all.length).toBeLessThanOrEqual(5);
    expect(all[0].id).toBeGreaterThan(all[all.length - 1].id);
    expect((await app.inject({ method: 'GET', url: '/api/ops/dossiers?limit=0', headers: ops })).statusCode).toBe(422);
  });

  it('names a dossier by id or by e-mail (any case); unknown: 404; anything else: 422', async () => {
    const user = await applicant();
    const byEmail = await app.inject({ method: 'GET', url: `/api/ops/dossiers/${encodeURIComponent(user.email.toUpperCase())}`, headers: ops });
    expect(byEmail.statusCode).toBe(200);
    expect(byEmail.json().payload).toMatchObject({ id: user.requestId, email: user.email, timeline: [], trade_register_documents: [] });

    for (const dossier of ['999999999', 'nimeni.aici@exemplu.ro']) {
      const res = await addItem(dossier, { type: 'rejected' });
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toBe(OPS_MESSAGES.notFound(dossier));
      expect((await attach(dossier, [{ name: 'files[0]', filename: 'a.pdf', data: PDF('a') }])).statusCode).toBe(404);
      expect((await app.inject({ method: 'POST', url: `/api/ops/dossiers/${encodeURIComponent(dossier)}/finalize`, payload: {}, headers: ops })).statusCode).toBe(404);
    }
    const bad = await addItem('popescu', { type: 'rejected' });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().payload).toEqual({ dossier: [OPS_MESSAGES.badDossier] });
  });

  it('refuses (409) timeline items and documents for an existing-PFA dossier', async () => {
    const user = await applicant(1);
    const res = await addItem(user.email, { type: 'rejected' });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(TIMELINE_MESSAGES.notNewPfa);
    expect((await attach(user.requestId, [{ name: 'files[0]', filename: 'a.pdf', data: PDF('a') }])).statusCode).toBe(409);
    expect(await itemsOf(user.requestId)).toEqual([]);
    expect(await documentsOf(user.requestId)).toEqual([]);
  });
});

describe('ops API: adding items', () => {
  it.each([
    ['an unknown type', { type: 'approved' }, { type: [TIMELINE_MESSAGES.unknownType] }],
    ['no type', { date: '2026-11-01' }, { type: ['Câmpul este obligatoriu.'] }],
    ['a missing required field', { type: 'name_reservation', hasNameReservation: true }, { pfa_name: [TIMELINE_MESSAGES.required] }],
    ['a blank name', { type: 'name_reservation', hasNameReservation: true, pfa_name: '   ' }, { pfa_name: [TIMELINE_MESSAGES.text] }],
    ['a boolean as text', { type: 'submitted', finalDossierSubmitted: 'da' }, { finalDossierSubmitted: [TIMELINE_MESSAGES.boolean] }],
    ['a day that does not exist', { type: 'rejected', date: '2026-02-30' }, { date: [TIMELINE_MESSAGES.date] }],
    ['a date in another format', { type: 'delayed', estimated_date: '30.11.2026' }, { estimated_date: [TIMELINE_MESSAGES.date] }],
    ['a field of another type', { type: 'rejected', pfa_name: 'X PFA' }, { pfa_name: [TIMELINE_MESSAGES.notOfType('rejected')] }],
    [
      'several faults at once',
      { type: 'document_review', hasDiploma: 'no', date: 'ieri' },
      { isDataComplete: [TIMELINE_MESSAGES.required], hasDiploma: [TIMELINE_MESSAGES.boolean], date: [TIMELINE_MESSAGES.date] },
    ],
  ])('answers 422 with field errors for %s, and writes nothing', async (_case, body, fields) => {
    const user = await applicant();
    const res = await addItem(user.requestId, body);
    expect(res.statusCode).toBe(422);
    expect(res.json().payload).toEqual(fields);
    expect(await itemsOf(user.requestId)).toEqual([]);
    expect((await open(user)).status_timeline).toEqual([]);
  });

  it('dates an item today (Romania) when no date is given', async () => {
    const user = await applicant();
    const res = await addItem(user.email, { type: 'document_review', isDataComplete: true });
    expect(res.statusCode).toBe(201);
    expect(res.json().payload.item).toMatchObject({ date: todayInRomania(), isDataComplete: true, hasDiploma: true });
    expect(res.json().payload.dossier.timeline_items).toBe(1);
  });
});

describe('trade register documents', () => {
  it('attaches files; the applicant sees them and downloads one zip of exactly those files, repeated names made unique', async () => {
    const user = await applicant();
    const files = [
      { name: 'files[0]', filename: 'certificat.pdf', data: PDF('certificat') },
      { name: 'files[1]', filename: 'rezolutie.pdf', data: PDF('rezolutie') },
      { name: 'files[2]', filename: 'Certificat.pdf', data: PDF('al doilea certificat') },
      { name: 'files[3]', filename: 'poza.jpg', data: JPEG },
    ];
    const res = await attach(user.email, files);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().payload.documents.map((d: { name: string }) => d.name)).toEqual(['certificat.pdf', 'rezolutie.pdf', 'Certificat.pdf', 'poza.jpg']);

    const request = await open(user);
    expect(request.media.trade_register_documents).toEqual(res.json().payload.documents);
    expect(request.media.trade_register_documents[0]).toEqual({ id: expect.any(Number), name: 'certificat.pdf' });
    // They are not the applicant's own uploads.
    expect(request.media.diploma_documents).toEqual([]);

    const download = await app.inject({ method: 'GET', url: DOWNLOAD, headers: auth(user.token) });
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toBe('application/zip');
    expect(download.headers['content-disposition']).toBe('attachment; filename="documente.zip"');
    const entries = readZip(download.rawPayload);
    expect(entries.map((e) => e.name)).toEqual(['certificat.pdf', 'rezolutie.pdf', 'Certificat (2).pdf', 'poza.jpg']);
    // The PDFs byte for byte; the photo encoded again without its metadata.
    entries.slice(0, 3).forEach((entry, i) => expect(entry.data.equals(files[i].data)).toBe(true));
    expect(detectImageType(entries[3].data)?.contentType).toBe('image/jpeg');

    // More documents later are added to the same zip.
    expect((await attach(user.requestId, [{ name: 'files[0]', filename: 'certificat.pdf', data: PDF('x') }])).statusCode).toBe(201);
    const again = readZip((await app.inject({ method: 'GET', url: DOWNLOAD, headers: auth(user.token) })).rawPayload);
    expect(again.map((e) => e.name)).toEqual(['certificat.pdf', 'rezolutie.pdf', 'Certificat (2).pdf', 'poza.jpg', 'certificat (3).pdf']);
  });

  it('answers 404 (JSON) while there are none', async () => {
    const user = await applicant();
    const res = await app.inject({ method: 'GET', url: DOWNLOAD, headers: auth(user.token) });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: STATUS_MESSAGES.noDocuments, payload: null });
    // An existing-PFA applicant has none either.
    const existing = await applicant(1);
    expect((await app.inject({ method: 'GET', url: DOWNLOAD, headers: auth(existing.token) })).statusCode).toBe(404);
  });

  it("never gives one applicant another's documents", async () => {
    const ana = await applicant();
    const ion = await applicant();
    expect((await attach(ana.requestId, [{ name: 'files[0]', filename: 'ana.pdf', data: PDF('ana') }])).statusCode).toBe(201);
    expect((await app.inject({ method: 'GET', url: DOWNLOAD, headers: auth(ion.token) })).statusCode).toBe(404);
    expect((await open(ion)).media.trade_register_documents).toEqual([]);

    expect((await attach(ion.requestId, [{ name: 'files[0]', filename: 'ion.pdf', data: PDF('ion') }])).statusCode).toBe(201);
    const ionZip = readZip((await app.inject({ method: 'GET', url: DOWNLOAD, headers: auth(ion.token) })).rawPayload);
    expect(ionZip.map((e) => e.name)).toEqual(['ion.pdf']);
    const anaZip = readZip((await app.inject({ method: 'GET', url: DOWNLOAD, headers: auth(ana.token) })).rawPayload);
    expect(anaZip.map((e) => e.name)).toEqual(['ana.pdf']);
    // The file itself is the applicant's own (GET /api/files/:id), nobody else's.
    const anaFile = (await open(ana)).media.trade_register_documents[0].id;
    expect((await app.inject({ method: 'GET', url: `/api/files/${anaFile}`, headers: auth(ana.token) })).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: `/api/files/${anaFile}`, headers: auth(ion.token) })).statusCode).toBe(404);
  });

  it('refuses no files, an empty file or too many files, and stores nothing', async () => {
    const user = await applicant();
    const before = await storedFiles();
    const none = await attach(user.requestId, []);
    expect(none.statusCode).toBe(422);
    expect(none.json().payload).toEqual({ files: [TIMELINE_MESSAGES.noFiles] });
    const empty = await attach(user.requestId, [
      { name: 'files[0]', filename: 'bun.pdf', data: PDF('bun') },
      { name: 'files[1]', filename: 'gol.pdf', data: Buffer.alloc(0) },
    ]);
    expect(empty.statusCode).toBe(422);
    expect(empty.json().payload).toEqual({ 'files.1': [TIMELINE_MESSAGES.emptyFile] });
    const many = await attach(
      user.requestId,
      Array.from({ length: 21 }, (_, i) => ({ name: `files[${i}]`, filename: `f${i}.pdf`, data: PDF(String(i)) })),
    );
    expect(many.statusCode).toBe(422);
    expect(many.json().payload).toEqual({ files: [OPS_MESSAGES.tooMany] });
    expect(await documentsOf(user.requestId)).toEqual([]);
    expect(await storedFiles()).toBe(before);
  });
});

describe('finalize', () => {
  it('marks the request finalized with a finalized item (given date or today); twice: 409', async () => {
    const user = await applicant();
    const res = await app.inject({ method: 'POST', url: `/api/ops/dossiers/${user.requestId}/finalize`, payload: { date: '2026-12-01' }, headers: ops });
    expect(res.statusCode).toBe(201);
    expect(res.json().payload.item).toEqual({ id: expect.any(Number), type: 'finalized', date: '2026-12-01' });
    expect(res.json().payload.dossier).toMatchObject({ status: 'finalized', timeline_items: 1 });
    const request = await open(user);
    expect(request.status).toBe('finalized');
    expect(request.status_timeline).toEqual([res.json().payload.item]);

    const again = await app.inject({ method: 'POST', url: `/api/ops/dossiers/${user.requestId}/finalize`, headers: ops });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(TIMELINE_MESSAGES.alreadyFinalized);
    expect((await addItem(user.requestId, { type: 'finalized' })).statusCode).toBe(409);
    expect(await itemsOf(user.requestId)).toHaveLength(1);
  });

  it('defaults to today; a bad date is 422 and changes nothing', async () => {
    const user = await applicant();
    const bad = await app.inject({ method: 'POST', url: `/api/ops/dossiers/${user.requestId}/finalize`, payload: { date: '2026-13-01' }, headers: ops });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().payload).toEqual({ date: [TIMELINE_MESSAGES.date] });
    expect((await open(user)).status).toBe('in_progress');
    expect(await itemsOf(user.requestId)).toEqual([]);

    const res = await app.inject({ method: 'POST', url: `/api/ops/dossiers/${encodeURIComponent(user.email)}/finalize`, headers: ops });
    expect(res.statusCode).toBe(201);
    expect(res.json().payload.item.date).toBe(todayInRomania());
    expect((await open(user)).status).toBe('finalized');
  });

  it('the finalized type through "add" finalizes too', async () => {
    const user = await applicant();
    expect((await addItem(user.requestId, { type: 'finalized', date: '2026-12-02' })).statusCode).toBe(201);
    expect((await open(user)).status).toBe('finalized');
  });
});

describe('uniqueEntryNames', () => {
  it('numbers repeated names (ignoring case) before the extension', () => {
    expect(uniqueEntryNames(['a.pdf', 'A.pdf', 'a.pdf', 'b', 'b', '..', 'a (2).pdf'])).toEqual(['a.pdf', 'A (2).pdf', 'a (3).pdf', 'b', 'b (2)', 'document', 'a (2) (2).pdf']);
  });
});
