import { describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { eq } from 'drizzle-orm';
import { outbox, registrationRequests, requestDocuments, timelineItems } from '../../server/db/schema';
import { DOSSIER_MESSAGES } from '../../server/routes/staff-dossiers';
import { TIMELINE_MESSAGES } from '../../server/registration/timeline';
import { auth, mailsTo } from './helpers';
import { multipartPayload } from './identity-helpers';
import { PDF, ops, type StaffMember, staffConsoleApp } from './staff-dossiers-setup';

/** The staff console's actions on a dossier (timeline items, documents, finalize, reject, missing documents), each with its audit entry, and the ops API's same services. */

let app: FastifyInstance;
let operator: StaffMember;
const { as, applicant, get, post, auditOf } = staffConsoleApp((made) => ({ app, operator } = made));

describe('actions, each with its audit entry', () => {
  it('GET /api/staff/timeline-types: every type with its JSON Schema', async () => {
    const res = await get('/api/staff/timeline-types');
    expect(res.statusCode).toBe(200);
    const types = res.json().payload;
    expect(types.map((t: { type: string }) => t.type)).toEqual(['document_review', 'name_reservation', 'submitted', 'delayed', 'rejected', 'finalized']);
    expect(types[1].schema).toMatchObject({ required: ['type', 'date', 'hasNameReservation', 'pfa_name'], properties: { pfa_name: { type: 'string' } } });
  });

  it('adds a timeline item: the applicant sees it; the audit names the operator with the item', async () => {
    const user = await applicant();
    const res = await post(`/api/staff/dossiers/${user.requestId}/timeline`, { type: 'name_reservation', date: '2026-11-23', hasNameReservation: true, pfa_name: 'POPESCU ION PFA' });
    expect(res.statusCode).toBe(201);
    const { item, timeline } = res.json().payload;
    expect(item).toEqual({ id: item.id, type: 'name_reservation', date: '2026-11-23', hasNameReservation: true, pfa_name: 'POPESCU ION PFA' });
    expect(timeline).toEqual([item]);
    const open = await app.inject({ method: 'GET', url: '/api/registration/open', headers: auth(user.token) });
    expect(open.json().payload.status_timeline).toEqual([item]);
    const [entry] = await auditOf(user.requestId);
    expect(entry).toMatchObject({ staffUserId: operator.id, action: 'timeline.add', before: null, after: { item } });
  });

  it('a bad item: 422 with the field errors, nothing written, no audit entry', async () => {
    const user = await applicant();
    const res = await post(`/api/staff/dossiers/${user.requestId}/timeline`, { type: 'name_reservation', date: '2026-02-30', hasNameReservation: 'poate' });
    expect(res.statusCode).toBe(422);
    expect(res.json().payload).toEqual({ date: [TIMELINE_MESSAGES.date], hasNameReservation: [TIMELINE_MESSAGES.boolean], pfa_name: [TIMELINE_MESSAGES.required] });
    const unknown = await post(`/api/staff/dossiers/${user.requestId}/timeline`, { type: 'aprobat' });
    expect(unknown.json().payload).toEqual({ type: [TIMELINE_MESSAGES.unknownType] });
    expect(await app.db.select().from(timelineItems).where(eq(timelineItems.requestId, user.requestId))).toEqual([]);
    expect(await auditOf(user.requestId)).toEqual([]);
  });

  it('uploads trade register documents; an empty file or none is 422 with nothing stored', async () => {
    const user = await applicant();
    const send = async (files: { name: string; filename: string; data: Buffer }[]) => {
      const { payload, contentType } = await multipartPayload({}, files);
      return app.inject({ method: 'POST', url: `/api/staff/dossiers/${user.requestId}/documents`, payload, headers: { ...as(operator), 'content-type': contentType } });
    };
    const empty = await send([{ name: 'files[0]', filename: 'a.pdf', data: PDF('a') }, { name: 'files[1]', filename: 'gol.pdf', data: Buffer.alloc(0) }]);
    expect(empty.statusCode).toBe(422);
    expect(empty.json().payload).toEqual({ 'files.1': [TIMELINE_MESSAGES.emptyFile] });
    const none = await send([]);
    expect(none.statusCode).toBe(422);
    expect(await app.db.select().from(requestDocuments).where(eq(requestDocuments.requestId, user.requestId))).toEqual([]);
    expect(await auditOf(user.requestId)).toEqual([]);

    const ok = await send([{ name: 'files[0]', filename: 'rezolutie.pdf', data: PDF('r') }]);
    expect(ok.statusCode).toBe(201);
    expect(ok.json().payload.documents.map((d: { name: string }) => d.name)).toEqual(['rezolutie.pdf']);
    const open = await app.inject({ method: 'GET', url: '/api/registration/open', headers: auth(user.token) });
    expect(open.json().payload.media.trade_register_documents.map((d: { name: string }) => d.name)).toEqual(['rezolutie.pdf']);
    const [entry] = await auditOf(user.requestId);
    expect(entry).toMatchObject({ action: 'documents.attach', staffUserId: operator.id, after: { documents: [{ name: 'rezolutie.pdf' }] } });
  });

  it('finalize and reject set the status with their item; a second time is 409 with nothing written', async () => {
    const a = await applicant();
    const fin = await post(`/api/staff/dossiers/${a.requestId}/finalize`, { date: '2026-12-05' });
    expect(fin.statusCode).toBe(201);
    expect(fin.json()).toMatchObject({ message: DOSSIER_MESSAGES.finalized, payload: { status: 'finalized', item: { type: 'finalized', date: '2026-12-05' } } });
    const [row] = await app.db.select().from(registrationRequests).where(eq(registrationRequests.id, a.requestId));
    expect(row.status).toBe('finalized');
    const again = await post(`/api/staff/dossiers/${a.requestId}/finalize`, {});
    expect(again.statusCode).toBe(409);
    expect((await post(`/api/staff/dossiers/${a.requestId}/reject`, {})).statusCode).toBe(409);
    const entries = await auditOf(a.requestId);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ action: 'dossier.finalize', before: { status: 'in_progress' }, after: { status: 'finalized' } });

    const b = await applicant();
    const rej = await post(`/api/staff/dossiers/${b.requestId}/reject`, undefined);
    expect(rej.statusCode).toBe(201);
    expect(rej.json().payload).toMatchObject({ status: 'rejected', item: { type: 'rejected' } });
    expect((await post(`/api/staff/dossiers/${b.requestId}/reject`, {})).statusCode).toBe(409);
    expect((await auditOf(b.requestId)).map((e) => e.action)).toEqual(['dossier.reject']);
    const bad = await post(`/api/staff/dossiers/${b.requestId}/finalize`, { date: '05.12.2026' });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().payload).toEqual({ date: [TIMELINE_MESSAGES.date] });
  });

  it('an existing-PFA dossier has no timeline: 409, nothing written', async () => {
    const user = await applicant({ type: 1 });
    const res = await post(`/api/staff/dossiers/${user.requestId}/timeline`, { type: 'rejected' });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(TIMELINE_MESSAGES.notNewPfa);
    expect(await auditOf(user.requestId)).toEqual([]);
  });

  it('asks the applicant for missing documents: a queued mail with the message and an audit entry; an empty message is 422', async () => {
    const user = await applicant();
    const empty = await post(`/api/staff/dossiers/${user.requestId}/missing-documents`, { message: '   ' });
    expect(empty.statusCode).toBe(422);
    expect(Object.keys(empty.json().payload)).toEqual(['message']);
    expect(await mailsTo(app, user.email)).toHaveLength(1); // only the verification mail

    const res = await post(`/api/staff/dossiers/${user.requestId}/missing-documents`, { message: 'Diploma de studii, față și verso.' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ message: DOSSIER_MESSAGES.mailQueued, payload: { to: user.email } });
    const mails = await app.db.select().from(outbox).where(eq(outbox.to, user.email));
    const mail = mails.find((m) => m.subject.startsWith('Documente lipsă'));
    expect(mail?.text).toContain('Diploma de studii, față și verso.');
    expect(mail?.text).toContain('/infiintare-pfa/status');
    const [entry] = await auditOf(user.requestId);
    expect(entry).toMatchObject({ action: 'mail.missing_documents', staffUserId: operator.id, after: { to: user.email, message: 'Diploma de studii, față și verso.' } });
  });

  it('the missing-documents mail is in the language the applicant chose (English), with the operator\'s words as written', async () => {
    const user = await applicant();
    const chosen = await app.inject({ method: 'PUT', url: '/api/user/language', payload: { language: 'en' }, headers: auth(user.token) });
    expect(chosen.statusCode).toBeLessThan(300);
    const res = await post(`/api/staff/dossiers/${user.requestId}/missing-documents`, { message: 'Diploma de studii, față și verso.' });
    expect(res.statusCode).toBe(201);
    const mails = await app.db.select().from(outbox).where(eq(outbox.to, user.email));
    const mail = mails.find((m) => m.subject.startsWith('Missing documents for your'));
    expect(mail?.text).toContain('To go on with your dossier we need a few more documents:');
    expect(mail?.text).toContain('Diploma de studii, față și verso.');
    expect(mail?.text).toContain('Your dossier: ');
  });

  it('the ops API writes audit entries too, with no staff member (the shared OPS_TOKEN)', async () => {
    const user = await applicant();
    const res = await app.inject({ method: 'POST', url: `/api/ops/dossiers/${user.requestId}/timeline`, headers: ops, payload: { type: 'rejected', date: '2026-11-24' } });
    expect(res.statusCode).toBe(201);
    const [entry] = await auditOf(user.requestId);
    expect(entry).toMatchObject({ staffUserId: null, action: 'dossier.reject', after: { status: 'rejected' } });
    const listed = (await get(`/api/staff/dossiers/${user.requestId}/audit`)).json().payload;
    expect(listed[0]).toMatchObject({ staff_user_id: null, staff_email: null, action: 'dossier.reject' });
  });
});

describe('the ops API goes through the same services', () => {
  it('reject and missing-documents (npm run ops -- reject / ask) write the same changes and audit entries, without a staff member', async () => {
    const user = await applicant();
    const mail = await app.inject({ method: 'POST', url: `/api/ops/dossiers/${encodeURIComponent(user.email)}/missing-documents`, headers: ops, payload: { message: 'Permisul de conducere.' } });
    expect(mail.statusCode).toBe(201);
    expect(mail.json().payload).toMatchObject({ to: user.email });
    const blank = await app.inject({ method: 'POST', url: `/api/ops/dossiers/${user.requestId}/missing-documents`, headers: ops, payload: { message: '' } });
    expect(blank.statusCode).toBe(422);
    const rejected = await app.inject({ method: 'POST', url: `/api/ops/dossiers/${user.requestId}/reject`, headers: ops, payload: { date: '2026-11-30' } });
    expect(rejected.statusCode).toBe(201);
    expect(rejected.json().payload).toMatchObject({ item: { type: 'rejected', date: '2026-11-30' }, dossier: { status: 'rejected' } });
    expect((await app.inject({ method: 'POST', url: `/api/ops/dossiers/${user.requestId}/reject`, headers: ops })).statusCode).toBe(409);
    const actions = (await auditOf(user.requestId)).map((e) => [e.action, e.staffUserId]);
    expect(actions).toEqual([
      ['mail.missing_documents', null],
      ['dossier.reject', null],
    ]);
  });
});
