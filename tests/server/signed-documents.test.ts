import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { registrationRequests } from '../../server/db/schema';
import { auth, placeAtStep, registerUser, requestRowOf, testApp, type RegisteredUser } from './helpers';
import { PNG, multipartPayload } from './identity-helpers';
import { saveFile } from '../../server/files/files';
import { readPdf } from './pdf-text';
import { caenId, CURRENT_CAEN_REVISION } from '../../server/db/caen';

const OPS_TOKEN = 'ops-signed-documents-token-0123456789';
let app: FastifyInstance;
beforeAll(async () => {
  app = await testApp({ opsToken: OPS_TOKEN });
});
afterAll(() => app.close());

const SIGNATURE_STEP = 'requesting-company-step-5';
const OVERVIEW_STEP = 'requesting-company-step-7';
/** A valid CNP: a man born on 1990-05-15 in Cluj (check digit computed). */
const CNP = '1900515125806';
const PROFILE = {
  first_name: 'Ștefan',
  last_name: 'Țăranu',
  personal_code: CNP,
  address_1: 'Str. Mărășești nr. 12, ap. 3',
  address_2: 'Iași, județul Iași, 700001',
};

const get = (url: string, token: string) => app.inject({ method: 'GET', url, headers: auth(token) });
const post = (url: string, token: string, payload: object) => app.inject({ method: 'POST', url, payload, headers: auth(token) });
const open = async (user: RegisteredUser) => (await get('/api/registration/open', user.token)).json().payload;

/** A drawn signature as the pad sends it: a PNG with a blue stroke on a transparent background. */
async function drawing(shade = 200): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="600" height="233"><path d="M20 180 C 120 20, 220 220, 320 60 S 520 200, 580 40" stroke="rgb(0,0,${shade})" stroke-width="5" fill="none"/></svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

async function sign(user: RegisteredUser, png: Buffer) {
  await placeAtStep(app, user, SIGNATURE_STEP);
  const { payload, contentType } = await multipartPayload({ current_step_identifier: SIGNATURE_STEP, signature: 'new' }, [
    { name: 'file', filename: 'semnatura.png', contentType: 'image/png', data: png },
  ]);
  const res = await app.inject({ method: 'POST', url: '/api/registration/collect/signature', payload, headers: { ...auth(user.token), 'content-type': contentType } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().payload.signature_file_id as number;
}

async function send(user: RegisteredUser) {
  await placeAtStep(app, user, OVERVIEW_STEP, { activity: 'design-grafic', codes: [caenId(CURRENT_CAEN_REVISION, '7412')] });
  return post('/api/registration/send', user.token, { current_step_identifier: OVERVIEW_STEP, address_type: 1 });
}

/** A new-PFA applicant with a complete profile who signed (not sent yet). */
async function signedApplicant(): Promise<RegisteredUser> {
  const user = await registerUser(app, { type: 2 });
  await open(user);
  const row = await requestRowOf(app, user);
  await app.db.update(registrationRequests).set({ profile: PROFILE }).where(eq(registrationRequests.id, row.id));
  await sign(user, await drawing());
  return user;
}

interface SignedDocument {
  id: number;
  kind: string;
  name: string;
  url: string;
}

describe('the signed documents (issue 17 item 10, spec 001 §2 item 5)', () => {
  it('are not made before the dossier is sent', async () => {
    const user = await signedApplicant();
    expect((await open(user)).media.signed_documents).toEqual([]);
  });

  it('sending the dossier makes the contract and the power-of-attorney request: PDFs with the name, CNP, address, date and the signature image', async () => {
    const user = await signedApplicant();
    const res = await send(user);
    expect(res.statusCode, res.body).toBe(200);
    const documents = res.json().payload.media.signed_documents as SignedDocument[];
    expect(documents.map((d) => [d.kind, d.name])).toEqual([
      ['legal_assistance_contract', 'contract-asistenta-juridica.pdf'],
      ['power_of_attorney_request', 'cerere-imputernicire.pdf'],
    ]);
    const today = new Intl.DateTimeFormat('ro-RO', { timeZone: 'Europe/Bucharest', day: '2-digit', month: '2-digit', year: 'numeric' }).format(new Date());
    const titles = ['Contract de asistență juridică', 'Cerere de împuternicire'];
    for (const [i, document] of documents.entries()) {
      expect(document.url).toBe(`/api/files/${document.id}`);
      const file = await get(document.url, user.token);
      expect(file.statusCode).toBe(200);
      expect(file.headers['content-type']).toBe('application/pdf');
      expect(file.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
      const pdf = await readPdf(file.rawPayload);
      expect(pdf.doc.getTitle()).toBe(titles[i]);
      expect(pdf.lines[0]).toBe(titles[i]);
      // Romanian letters with the comma below, as the applicant wrote them.
      expect(pdf.text).toContain('Țăranu Ștefan');
      expect(pdf.text).toContain(`CNP ${CNP}`);
      expect(pdf.text).toContain('Str. Mărășești nr. 12, ap. 3, Iași, județul Iași, 700001');
      expect(pdf.text).toContain(`Data: ${today}`);
      expect(pdf.text).not.toMatch(/\{\{|\uFFFD/);
      expect(pdf.images).toBe(1);
    }
  });

  it('are made once: sending again with the same signature keeps them; a new signature makes them again', async () => {
    const user = await signedApplicant();
    const first = (await send(user)).json().payload.media.signed_documents as SignedDocument[];
    const again = await send(user);
    expect(again.statusCode).toBe(200);
    expect((again.json().payload.media.signed_documents as SignedDocument[]).map((d) => d.id)).toEqual(first.map((d) => d.id));

    await sign(user, await drawing(90));
    const resigned = await send(user);
    expect(resigned.statusCode).toBe(200);
    const second = resigned.json().payload.media.signed_documents as SignedDocument[];
    expect(second).toHaveLength(2);
    expect(second.map((d) => d.id).some((id) => first.some((f) => f.id === id))).toBe(false);
    // The superseded PDFs are gone.
    for (const old of first) expect((await get(old.url, user.token)).statusCode).toBe(404);
    expect((await requestRowOf(app, user)).formData.signed_documents).toMatchObject({ files: { legal_assistance_contract: second[0].id, power_of_attorney_request: second[1].id } });
  });

  it("another user's token gets 404; bad ids 404 or 422; nobody signed in 401", async () => {
    const user = await signedApplicant();
    const [contract] = (await send(user)).json().payload.media.signed_documents as SignedDocument[];
    const other = await registerUser(app, { type: 2 });
    const stolen = await get(contract.url, other.token);
    expect(stolen.statusCode).toBe(404);
    expect(stolen.json().message).toBe('Fișierul nu a fost găsit.');
    expect((await get('/api/files/999999999', user.token)).statusCode).toBe(404);
    for (const bad of ['abc', '-1', '0', '1e3', '99999999999999999999']) {
      const res = await get(`/api/files/${bad}`, user.token);
      expect([404, 422], `${bad}: ${res.statusCode}`).toContain(res.statusCode);
    }
    // Another user's dossier does not list them.
    expect((await open(other)).media.signed_documents).toEqual([]);
  });

  it('the applicant cannot delete them through the documents step (only their own uploads)', async () => {
    const user = await signedApplicant();
    const [contract] = (await send(user)).json().payload.media.signed_documents as SignedDocument[];
    await placeAtStep(app, user, 'requesting-company-step-3');
    const res = await post('/api/registration/delete/diploma-documents', user.token, { file_id: contract.id, current_step_identifier: 'requesting-company-step-3' });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
    expect((await get(contract.url, user.token)).statusCode).toBe(200);
  });

  it('a send refused by its checks makes nothing', async () => {
    const user = await signedApplicant();
    const row = await requestRowOf(app, user);
    await app.db.update(registrationRequests).set({ profile: { ...PROFILE, personal_code: '123' } }).where(eq(registrationRequests.id, row.id));
    const res = await send(user);
    expect(res.statusCode).toBe(422);
    expect((await open(user)).media.signed_documents).toEqual([]);
  });

  it('a saved signature pdf-lib cannot read: 422 asking to sign again, nothing sent, nothing made', async () => {
    const user = await signedApplicant();
    const row = await requestRowOf(app, user);
    // Bytes that start like a PNG (as the upload check sees them) but are not one.
    const broken = await saveFile(app, user.user.id, { data: Buffer.concat([PNG.subarray(0, 16), Buffer.alloc(64, 7)]), originalName: 'semnatura.png', contentType: 'image/png', clean: true });
    await placeAtStep(app, user, OVERVIEW_STEP, { activity: 'design-grafic', codes: [caenId(CURRENT_CAEN_REVISION, '7412')], signature_file_id: broken.id });
    const res = await post('/api/registration/send', user.token, { current_step_identifier: OVERVIEW_STEP, address_type: 1 });
    expect(res.statusCode).toBe(422);
    expect(res.json().payload).toEqual({ signature: ['Semnătura salvată nu poate fi aplicată pe documente. Te rugăm să revii la pasul „Semnătură” și să semnezi din nou.'] });
    const after = await requestRowOf(app, user);
    expect(after.status).toBe(row.status);
    expect(after.formData.submitted_at).toBeUndefined();
    expect((await open(user)).media.signed_documents).toEqual([]);
  });

  it("the existing PFA's flow end (the signature, then the dashboard) makes them too", async () => {
    const user = await registerUser(app, { type: 1 });
    await get('/api/registration/existing/open', user.token);
    const row = await requestRowOf(app, user);
    await app.db.update(registrationRequests).set({ profile: PROFILE }).where(eq(registrationRequests.id, row.id));
    await placeAtStep(app, user, 'existing-company-step-6');
    const { payload, contentType } = await multipartPayload({ current_step_identifier: 'existing-company-step-6', signature: 'new' }, [
      { name: 'file', filename: 'semnatura.png', contentType: 'image/png', data: await drawing() },
    ]);
    const res = await app.inject({ method: 'POST', url: '/api/registration/existing/collect/signature', payload, headers: { ...auth(user.token), 'content-type': contentType } });
    expect(res.statusCode, res.body).toBe(200);
    const documents = res.json().payload.media.signed_documents as SignedDocument[];
    expect(documents).toHaveLength(2);
    const pdf = await readPdf((await get(documents[1].url, user.token)).rawPayload);
    expect(pdf.text).toContain('Țăranu Ștefan');
    expect(pdf.images).toBe(1);
  });

  it('operators list and download them through the ops API (GET /api/ops/dossiers/:dossier/signed-documents/:id)', async () => {
    const user = await signedApplicant();
    const documents = (await send(user)).json().payload.media.signed_documents as SignedDocument[];
    const ops = { authorization: `Bearer ${OPS_TOKEN}`, 'x-ops-actor': 'Ana Operator' };
    const dossier = await app.inject({ method: 'GET', url: `/api/ops/dossiers/${encodeURIComponent(user.email)}`, headers: ops });
    expect(dossier.statusCode).toBe(200);
    const listed = dossier.json().payload.signed_documents as { id: number; kind: string; name: string; size: number }[];
    expect(listed.map(({ id, kind, name }) => ({ id, kind, name }))).toEqual(documents.map(({ id, kind, name }) => ({ id, kind, name })));
    const id = dossier.json().payload.id as number;

    for (const document of documents) {
      const res = await app.inject({ method: 'GET', url: `/api/ops/dossiers/${id}/signed-documents/${document.id}`, headers: ops });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('application/pdf');
      expect(res.headers['content-disposition']).toBe(`attachment; filename="${document.name}"`);
      expect(res.rawPayload.equals((await get(document.url, user.token)).rawPayload)).toBe(true);
    }
    // Another dossier's document, a file that is not a signed document, bad ids, no token.
    const other = await signedApplicant();
    const [theirs] = (await send(other)).json().payload.media.signed_documents as SignedDocument[];
    const notSigned = (await open(user)).signature_file_id as number;
    for (const fileId of [theirs.id, notSigned, 999999999]) {
      const res = await app.inject({ method: 'GET', url: `/api/ops/dossiers/${id}/signed-documents/${fileId}`, headers: ops });
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toBe('Dosarul nu are acest document semnat.');
    }
    for (const bad of ['abc', '0', '-3', '99999999999']) {
      const res = await app.inject({ method: 'GET', url: `/api/ops/dossiers/${id}/signed-documents/${bad}`, headers: ops });
      expect(res.statusCode, bad).toBe(422);
    }
    expect((await app.inject({ method: 'GET', url: `/api/ops/dossiers/999999999/signed-documents/${documents[0].id}`, headers: ops })).statusCode).toBe(404);
  });
});
