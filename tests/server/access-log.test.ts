import { randomInt } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { desc, eq } from 'drizzle-orm';
import { auditLog, registrationRequests, requestDocuments } from '../../server/db/schema';
import { saveFile } from '../../server/files/files';
import { mergeProfile } from '../../server/registration/store';
import { OPS_MESSAGES } from '../../server/routes/ops';
import { accessLogOf, auditedSearchTerm, auditEntries } from '../../server/staff/audit';
import { auth, registerUser, testApp, uniqueEmail, type RegisteredUser } from './helpers';
import { multipartPayload, sessionWithUploads } from './identity-helpers';

/** Issue 32: staff's and operators' reads of an applicant's data are in the audit log (who, what, when), and the applicant's access log. */

const OPS_TOKEN = 'ops-access-log-token-0123456789';
const OPERATOR = 'Ana Operator';
/** The ops headers with the operator `actor` (null: no X-Ops-Actor). */
const ops = (actor: string | null = OPERATOR) => ({ authorization: `Bearer ${OPS_TOKEN}`, ...(actor === null ? {} : { 'x-ops-actor': actor }) });
const PDF = (text: string) => Buffer.from(`%PDF-1.4\n% ${text}\n1 0 obj << >> endobj\n%%EOF\n`, 'latin1');

let app: FastifyInstance;
let operator: { id: number; email: string; token: string };

beforeAll(async () => {
  app = await testApp({ opsToken: OPS_TOKEN });
  const email = uniqueEmail('operator');
  const made = await app.inject({ method: 'POST', url: '/api/ops/staff', headers: ops(), payload: { email, password: 'parola-personal-1', role: 'operator' } });
  expect(made.statusCode).toBe(201);
  const login = await app.inject({ method: 'POST', url: '/api/staff/login', payload: { email, password: 'parola-personal-1' } });
  operator = { id: made.json().payload.id as number, email, token: login.json().payload.access_token as string };
});
afterAll(() => app?.close());

const uniqueCnp = () => `2${String(Date.now()).slice(-6)}${String(randomInt(0, 999999)).padStart(6, '0')}`;

async function applicant(): Promise<RegisteredUser & { requestId: number; cnp: string; lastName: string }> {
  const user = await registerUser(app, { type: 2 });
  const res = await app.inject({ method: 'GET', url: '/api/registration/open', headers: auth(user.token) });
  const requestId = res.json().payload.id as number;
  const cnp = uniqueCnp();
  const lastName = `Jurnal${Array.from({ length: 8 }, () => String.fromCharCode(97 + randomInt(0, 26))).join('')}`;
  await mergeProfile(app.db, requestId, { last_name: lastName, first_name: 'Ioana', personal_code: cnp });
  return { ...user, requestId, cnp, lastName };
}

/** A file of the applicant attached to the request as `kind` (a signed PDF, a diploma). */
async function requestFile(user: RegisteredUser & { requestId: number }, kind: 'diploma' | 'legal_assistance_contract', name: string) {
  const file = await saveFile(app, user.user.id, { data: PDF(name), originalName: name, contentType: 'application/pdf', clean: true });
  await app.db.insert(requestDocuments).values({ requestId: user.requestId, fileId: file.id, kind });
  return file.id;
}

const staffGet = (url: string) => app.inject({ method: 'GET', url, headers: auth(operator.token) });
const opsGet = (url: string, actor?: string) => app.inject({ method: 'GET', url, headers: ops(actor) });

/** The audit entries written since `after` (an audit id), oldest first. */
async function entriesSince(after: number) {
  const rows = await app.db.select().from(auditLog).orderBy(desc(auditLog.id)).limit(50);
  return rows.filter((r) => r.id > after).reverse();
}
async function lastAuditId() {
  const [row] = await app.db.select({ id: auditLog.id }).from(auditLog).orderBy(desc(auditLog.id)).limit(1);
  return row?.id ?? 0;
}

describe('staff console reads', () => {
  it('the dossier, each file (identity photos, selfie, signature, document, signed PDF, trade register) and a search: one entry each, by the staff member', async () => {
    const user = await applicant();
    const { uploads } = await sessionWithUploads(app, user.token);
    const signature = await saveFile(app, user.user.id, { data: PDF('semnatura'), originalName: 'semnatura.png', contentType: 'image/png', clean: true });
    const [row] = await app.db.select().from(registrationRequests).where(eq(registrationRequests.id, user.requestId));
    await app.db.update(registrationRequests).set({ formData: { ...row.formData, signature_file_id: signature.id } }).where(eq(registrationRequests.id, user.requestId));
    const diploma = await requestFile(user, 'diploma', 'diploma.pdf');
    const contract = await requestFile(user, 'legal_assistance_contract', 'contract.pdf');
    const { payload, contentType } = await multipartPayload({}, [{ name: 'files[0]', filename: 'certificat.pdf', data: PDF('certificat') }]);
    const attached = await app.inject({ method: 'POST', url: `/api/staff/dossiers/${user.requestId}/documents`, payload, headers: { ...auth(operator.token), 'content-type': contentType } });
    expect(attached.statusCode).toBe(201);
    const tradeRegister = attached.json().payload.documents[0].id as number;

    const start = await lastAuditId();
    expect((await staffGet(`/api/staff/dossiers/${user.requestId}`)).statusCode).toBe(200);
    const files: [number, string][] = [
      ...uploads.map((u): [number, string] => [u.file_id, `identity:${u.context}`]),
      [signature.id, 'signature'],
      [diploma, 'diploma'],
      [contract, 'legal_assistance_contract'],
      [tradeRegister, 'trade_register'],
    ];
    for (const [id] of files) expect((await staffGet(`/api/staff/dossiers/${user.requestId}/files/${id}`)).statusCode, String(id)).toBe(200);
    expect((await staffGet(`/api/staff/dossiers?search=${encodeURIComponent(user.lastName)}`)).json().payload.total).toBe(1);
    expect((await staffGet(`/api/staff/dossiers?search=${user.cnp}`)).json().payload.total).toBe(1);
    expect((await staffGet('/api/staff/dossiers')).statusCode).toBe(200); // no search: no entry

    const entries = await entriesSince(start);
    expect(entries.map((e) => ({ staffUserId: e.staffUserId, actor: e.actor, action: e.action, requestId: e.requestId, after: e.after }))).toEqual([
      { staffUserId: operator.id, actor: null, action: 'dossier.read', requestId: user.requestId, after: null },
      ...files.map(([id, kind]) => ({ staffUserId: operator.id, actor: null, action: 'file.read', requestId: user.requestId, after: { kind, id } })),
      { staffUserId: operator.id, actor: null, action: 'dossier.search', requestId: null, after: { search: user.lastName } },
      { staffUserId: operator.id, actor: null, action: 'dossier.search', requestId: null, after: { search: '[13 cifre]' } },
    ]);
    // Never the CNP nor the file's bytes.
    expect(JSON.stringify(entries)).not.toContain(user.cnp);
    expect(files.map(([, kind]) => kind)).toEqual(expect.arrayContaining(['identity:document-front', 'identity:document-back', 'identity:face']));
  });

  it('a refused read (another applicant\'s file, a missing dossier, an editor) records nothing', async () => {
    const a = await applicant();
    const b = await applicant();
    const theirs = await requestFile(b, 'diploma', 'b.pdf');
    const start = await lastAuditId();
    expect((await staffGet(`/api/staff/dossiers/${a.requestId}/files/${theirs}`)).statusCode).toBe(404);
    expect((await staffGet(`/api/staff/dossiers/999999999`)).statusCode).toBe(404);
    expect((await staffGet(`/api/staff/dossiers/999999999/files/${theirs}`)).statusCode).toBe(404);
    expect((await app.inject({ method: 'GET', url: `/api/staff/dossiers/${a.requestId}`, headers: auth(a.token) })).statusCode).toBe(401);
    expect(await entriesSince(start)).toEqual([]);
  });
});

describe('ops reads and writes name the operator (X-Ops-Actor)', () => {
  it('the dossier, a signed PDF and a search: one entry each with the operator\'s name; writes too', async () => {
    const user = await applicant();
    const contract = await requestFile(user, 'legal_assistance_contract', 'contract.pdf');
    const start = await lastAuditId();
    expect((await opsGet(`/api/ops/dossiers/${encodeURIComponent(user.email)}`, '  Ion Ionescu  ')).statusCode).toBe(200);
    expect((await opsGet(`/api/ops/dossiers/${user.requestId}/signed-documents/${contract}`)).statusCode).toBe(200);
    expect((await opsGet(`/api/ops/dossiers?search=${encodeURIComponent(user.email)}`)).json().payload).toHaveLength(1);
    expect((await opsGet('/api/ops/dossiers?limit=1')).statusCode).toBe(200); // no search: no entry
    const added = await app.inject({ method: 'POST', url: `/api/ops/dossiers/${user.requestId}/timeline`, headers: ops(), payload: { type: 'rejected', date: '2026-11-24' } });
    expect(added.statusCode).toBe(201);
    const mail = await app.inject({ method: 'POST', url: `/api/ops/dossiers/${user.requestId}/missing-documents`, headers: ops(), payload: { message: 'Diploma.' } });
    expect(mail.statusCode).toBe(201);

    const entries = await entriesSince(start);
    expect(entries.map((e) => ({ staffUserId: e.staffUserId, actor: e.actor, action: e.action, requestId: e.requestId }))).toEqual([
      { staffUserId: null, actor: 'Ion Ionescu', action: 'dossier.read', requestId: user.requestId },
      { staffUserId: null, actor: OPERATOR, action: 'file.read', requestId: user.requestId },
      { staffUserId: null, actor: OPERATOR, action: 'dossier.search', requestId: null },
      { staffUserId: null, actor: OPERATOR, action: 'dossier.reject', requestId: user.requestId },
      { staffUserId: null, actor: OPERATOR, action: 'mail.missing_documents', requestId: user.requestId },
    ]);
    expect(entries[1].after).toEqual({ kind: 'legal_assistance_contract', id: contract });
    // As kept: a run of 5+ digits (the random part of a test e-mail may have one) is masked like a CNP.
    expect(entries[2].after).toEqual({ search: auditedSearchTerm(user.email.toLowerCase()) });

    // The staff API's audit list names the operator.
    const audit = await auditEntries(app.db, { requestId: user.requestId });
    expect(audit.find((e) => e.action === 'dossier.read')).toMatchObject({ staff_user_id: null, staff_email: null, actor: 'Ion Ionescu' });
    const listed = await staffGet(`/api/staff/dossiers/${user.requestId}/audit`);
    expect(listed.json().payload.find((e: { action: string }) => e.action === 'dossier.read')).toMatchObject({ actor: 'Ion Ionescu' });
    // And so does the audit CSV, in its actor column.
    const csv = (await staffGet(`/api/staff/audit.csv?dossier=${user.requestId}`)).body.replace(/^\uFEFF/, '').split('\r\n');
    expect(csv[0].split(',')).toContain('actor');
    expect(csv.some((line) => line.includes(',,,Ion Ionescu,dossier.read,'))).toBe(true);
  });

  it('staff:add through ops records the operator too', async () => {
    const start = await lastAuditId();
    const made = await app.inject({ method: 'POST', url: '/api/ops/staff', headers: ops('Maria Admin'), payload: { email: uniqueEmail('editor'), password: 'parola-personal-1', role: 'editor' } });
    expect(made.statusCode).toBe(201);
    expect((await entriesSince(start)).map((e) => ({ action: e.action, actor: e.actor }))).toEqual([{ action: 'staff.add', actor: 'Maria Admin' }]);
  });

  it.each([
    ['none', null],
    ['empty', ''],
    ['blank', '   '],
    ['too long', 'x'.repeat(101)],
    ['a control character', 'Ana\u0007Operator'],
  ])('without a valid X-Ops-Actor (%s) reads and writes answer 422 and record nothing', async (_, actor) => {
    const user = await applicant();
    const contract = await requestFile(user, 'legal_assistance_contract', 'contract.pdf');
    const start = await lastAuditId();
    const calls = [
      ['GET', '/api/ops/dossiers?search=jurnal'],
      ['GET', `/api/ops/dossiers/${user.requestId}`],
      ['GET', `/api/ops/dossiers/${user.requestId}/signed-documents/${contract}`],
      ['POST', `/api/ops/dossiers/${user.requestId}/finalize`, {}],
      ['POST', `/api/ops/dossiers/${user.requestId}/missing-documents`, { message: 'Diploma.' }],
      ['POST', '/api/ops/staff', { email: uniqueEmail('x'), password: 'parola-personal-1', role: 'editor' }],
    ] as const;
    for (const [method, url, payload] of calls) {
      const res = await app.inject({ method, url, headers: ops(actor), payload });
      expect(res.statusCode, `${method} ${url}`).toBe(422);
      expect(res.json()).toMatchObject({ message: OPS_MESSAGES.actor, payload: { 'X-Ops-Actor': [OPS_MESSAGES.actor] } });
    }
    expect(await entriesSince(start)).toEqual([]);
    const [row] = await app.db.select().from(registrationRequests).where(eq(registrationRequests.id, user.requestId));
    expect(row.status).not.toBe('finalized');
  });

  it('a refused ops read (a missing dossier, another dossier\'s file) records nothing; a wrong token is still 401', async () => {
    const a = await applicant();
    const b = await applicant();
    const theirs = await requestFile(b, 'legal_assistance_contract', 'contract.pdf');
    const start = await lastAuditId();
    expect((await opsGet('/api/ops/dossiers/999999999')).statusCode).toBe(404);
    expect((await opsGet(`/api/ops/dossiers/${a.requestId}/signed-documents/${theirs}`)).statusCode).toBe(404);
    expect((await app.inject({ method: 'GET', url: `/api/ops/dossiers/${a.requestId}`, headers: { authorization: 'Bearer wrong-token-wrong-token-1234' } })).statusCode).toBe(401);
    expect(await entriesSince(start)).toEqual([]);
  });
});

describe('accessLogOf', () => {
  it('every entry about the user\'s requests, oldest first, with who (staff e-mail or operator) and without payloads; another user\'s are not in it', async () => {
    const user = await applicant();
    const other = await applicant();
    const diploma = await requestFile(user, 'diploma', 'diploma.pdf');
    expect((await staffGet(`/api/staff/dossiers/${user.requestId}`)).statusCode).toBe(200);
    expect((await staffGet(`/api/staff/dossiers/${user.requestId}/files/${diploma}`)).statusCode).toBe(200);
    expect((await opsGet(`/api/ops/dossiers/${user.requestId}`)).statusCode).toBe(200);
    expect((await staffGet(`/api/staff/dossiers/${other.requestId}`)).statusCode).toBe(200);
    expect((await opsGet(`/api/ops/dossiers/${other.requestId}`, 'Altcineva')).statusCode).toBe(200);

    const log = await accessLogOf(app.db, user.user.id);
    expect(log.map(({ who, action, request_id }) => ({ who, action, request_id }))).toEqual([
      { who: operator.email, action: 'dossier.read', request_id: user.requestId },
      { who: operator.email, action: 'file.read', request_id: user.requestId },
      { who: OPERATOR, action: 'dossier.read', request_id: user.requestId },
    ]);
    for (const entry of log) {
      expect(Object.keys(entry).sort()).toEqual(['action', 'at', 'request_id', 'who']);
      expect(Number.isNaN(Date.parse(entry.at))).toBe(false);
    }
    expect(log.map((e) => e.at)).toEqual([...log.map((e) => e.at)].sort());
    expect((await accessLogOf(app.db, other.user.id)).map((e) => e.who)).toEqual([operator.email, 'Altcineva']);
  });
});
