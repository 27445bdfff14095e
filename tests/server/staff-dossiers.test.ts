import { randomInt } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { eq } from 'drizzle-orm';
import { registrationRequests, timelineItems } from '../../server/db/schema';
import { DOSSIER_MESSAGES } from '../../server/routes/staff-dossiers';
import { STAFF_AUTH_MESSAGES } from '../../server/plugins/staff-auth';
import { TIMELINE_MESSAGES } from '../../server/registration/timeline';
import { auditCsv, csvField } from '../../server/staff/audit';
import { DOSSIER_ACTION_MESSAGES } from '../../server/staff/dossier-actions';
import { translate } from '../../server/messages';
import { auth, placeAtStep } from './helpers';
import { multipartPayload } from './identity-helpers';
import { PDF, ops, type StaffMember, staffConsoleApp } from './staff-dossiers-setup';

/** The staff console's dossier API (issue 18): who may call it, the list and search, a dossier with its files, the audit log, English answers (the actions: staff-dossier-actions.test.ts). */

let app: FastifyInstance;
let operator: StaffMember;
let editor: StaffMember;
const { as, applicant, get, post, auditOf } = staffConsoleApp((made) => ({ app, operator, editor } = made));

describe('who may call the operator API', () => {
  it('an editor gets 403, an applicant\'s token, a wrong token or none get 401, on every route', async () => {
    const user = await applicant();
    const routes: [string, string, object?][] = [
      ['GET', '/api/staff/dossiers'],
      ['GET', '/api/staff/timeline-types'],
      ['GET', `/api/staff/dossiers/${user.requestId}`],
      ['GET', `/api/staff/dossiers/${user.requestId}/audit`],
      ['GET', `/api/staff/dossiers/${user.requestId}/files/1`],
      ['GET', '/api/staff/audit.csv'],
      ['POST', `/api/staff/dossiers/${user.requestId}/timeline`, { type: 'rejected' }],
      ['POST', `/api/staff/dossiers/${user.requestId}/finalize`, {}],
      ['POST', `/api/staff/dossiers/${user.requestId}/reject`, {}],
      ['POST', `/api/staff/dossiers/${user.requestId}/missing-documents`, { message: 'Diploma' }],
      ['POST', `/api/staff/dossiers/${user.requestId}/documents`, {}],
    ];
    for (const [method, url, payload] of routes) {
      const asEditor = await app.inject({ method: method as 'GET', url, headers: as(editor), payload });
      expect(asEditor.statusCode, `${method} ${url}`).toBe(403);
      expect(asEditor.json().message).toBe(STAFF_AUTH_MESSAGES.forbidden);
      for (const headers of [{}, auth(user.token), ops, { authorization: 'Bearer nu-e-un-token' }]) {
        expect((await app.inject({ method: method as 'GET', url, headers, payload })).statusCode, `${method} ${url}`).toBe(401);
      }
    }
    // Nothing was written by any of them.
    expect(await app.db.select().from(timelineItems).where(eq(timelineItems.requestId, user.requestId))).toEqual([]);
    expect(await auditOf(user.requestId)).toEqual([]);
  });

  it('a dossier that does not exist: 404 on every dossier route', async () => {
    const missing = 999_999_999;
    for (const [method, url, payload] of [
      ['GET', `/api/staff/dossiers/${missing}`],
      ['GET', `/api/staff/dossiers/${missing}/audit`],
      ['GET', `/api/staff/dossiers/${missing}/files/1`],
      ['GET', `/api/staff/audit.csv?dossier=${missing}`],
      ['POST', `/api/staff/dossiers/${missing}/timeline`, { type: 'rejected' }],
      ['POST', `/api/staff/dossiers/${missing}/finalize`, {}],
      ['POST', `/api/staff/dossiers/${missing}/reject`, {}],
      ['POST', `/api/staff/dossiers/${missing}/missing-documents`, { message: 'Diploma' }],
    ] as const) {
      const res = await app.inject({ method, url, headers: as(operator), payload });
      expect(res.statusCode, url).toBe(404);
    }
    expect((await get('/api/staff/dossiers/abc')).statusCode).toBe(422);
  });
});

describe('GET /api/staff/dossiers', () => {
  it('finds a dossier by CNP, by name (either order, any case), by e-mail; answers the list fields', async () => {
    const lastName = `Ionescu${randomInt(1e6)}`;
    const user = await applicant({ lastName, firstName: 'Maria' });
    const expected = {
      id: user.requestId,
      email: user.email,
      name: `${lastName} Maria`,
      cnp: user.cnp,
      cui: null,
      registration_type: 2,
      flow: 'new-pfa',
      step: 1,
      step_id: 'requesting-company-step-0',
      paid: false,
      status: 'in_progress',
      partner: 'neafiliat',
    };
    for (const search of [user.cnp, user.cnp.slice(2, 10), `maria ${lastName.toLowerCase()}`, lastName.toUpperCase(), user.email.toUpperCase()]) {
      const res = await get(`/api/staff/dossiers?search=${encodeURIComponent(search)}`);
      expect(res.statusCode).toBe(200);
      const { items, total, page, page_size } = res.json().payload;
      expect(total, search).toBe(1);
      expect({ page, page_size }).toEqual({ page: 1, page_size: 20 });
      expect(items[0]).toMatchObject(expected);
      expect(new Date(items[0].created_at).getTime()).toBeGreaterThan(0);
    }
  });

  it('finds an existing PFA by its CUI (with or without RO)', async () => {
    const user = await applicant({ type: 1 });
    const cui = String(randomInt(10_000_000, 99_999_999));
    await placeAtStep(app, user, 'existing-company-step-1', { fiscal_code: cui });
    for (const search of [cui, `RO${cui}`]) {
      const { items } = (await get(`/api/staff/dossiers?search=${search}`)).json().payload;
      expect(items.map((i: { id: number }) => i.id)).toEqual([user.requestId]);
      expect(items[0]).toMatchObject({ cui, flow: 'existing-pfa', registration_type: 1 });
    }
  });

  it('filters by flow, step, paid, status and partner; pages', async () => {
    const lastName = `Filtru${randomInt(1e6)}`;
    const a = await applicant({ lastName, partner: 'icredit' });
    const b = await applicant({ lastName });
    const c = await applicant({ lastName });
    await placeAtStep(app, b, 'requesting-company-step-3');
    await app.db.update(registrationRequests).set({ paid: true, status: 'paid' }).where(eq(registrationRequests.id, c.requestId));
    const ids = async (query: string) => (await get(`/api/staff/dossiers?search=${lastName}&${query}`)).json().payload.items.map((i: { id: number }) => i.id);
    expect(await ids('')).toEqual([c.requestId, b.requestId, a.requestId]);
    expect(await ids('partner=icredit')).toEqual([a.requestId]);
    expect(await ids('step=requesting-company-step-3')).toEqual([b.requestId]);
    expect(await ids('paid=true')).toEqual([c.requestId]);
    expect(await ids('paid=false')).toEqual([b.requestId, a.requestId]);
    expect(await ids('status=paid')).toEqual([c.requestId]);
    expect(await ids('flow=new-pfa')).toEqual([c.requestId, b.requestId, a.requestId]);
    expect(await ids('flow=existing-pfa')).toEqual([]);
    const page2 = (await get(`/api/staff/dossiers?search=${lastName}&page=2&page_size=2`)).json().payload;
    expect(page2).toMatchObject({ total: 3, page: 2, page_size: 2 });
    expect(page2.items.map((i: { id: number }) => i.id)).toEqual([a.requestId]);
    expect((await get(`/api/staff/dossiers?search=${lastName}&page=5&page_size=2`)).json().payload).toMatchObject({ items: [], total: 3 });
  });

  it('422 with field errors for bad filters', async () => {
    const res = await get('/api/staff/dossiers?page=0&page_size=500&paid=poate&flow=nu-exista');
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().payload).sort()).toEqual(['page', 'page_size', 'paid']);
    const flow = await get('/api/staff/dossiers?flow=nu-exista');
    expect(flow.statusCode).toBe(422);
    expect(flow.json().payload).toEqual({ flow: [DOSSIER_MESSAGES.unknownFlow] });
  });
});

describe('GET /api/staff/dossiers/:id and its files', () => {
  it('answers the dossier, the applicant\'s request, payments, files (downloadable) and audit entries', async () => {
    const user = await applicant();
    const { payload, contentType } = await multipartPayload({}, [{ name: 'files[0]', filename: 'certificat înregistrare.pdf', data: PDF('certificat') }]);
    expect((await app.inject({ method: 'POST', url: `/api/staff/dossiers/${user.requestId}/documents`, payload, headers: { ...as(operator), 'content-type': contentType } })).statusCode).toBe(201);
    const res = await get(`/api/staff/dossiers/${user.requestId}`);
    expect(res.statusCode).toBe(200);
    const detail = res.json().payload;
    expect(detail.dossier).toMatchObject({ id: user.requestId, email: user.email, cnp: user.cnp });
    expect(detail.request).toMatchObject({ id: user.requestId, profile: { personal_code: user.cnp }, status_timeline: [] });
    expect(detail.request.media.trade_register_documents).toHaveLength(1);
    expect(detail.payments).toEqual([]);
    expect(detail.caen_codes).toEqual([]);
    const file = detail.files.find((f: { name: string }) => f.name === 'certificat înregistrare.pdf');
    expect(file).toMatchObject({ content_type: 'application/pdf', url: `/api/staff/dossiers/${user.requestId}/files/${file.id}` });
    expect(detail.audit).toHaveLength(1);
    expect(detail.audit[0]).toMatchObject({ action: 'documents.attach', staff_user_id: operator.id, staff_email: operator.email, request_id: user.requestId });

    const download = await get(file.url);
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toBe('application/pdf');
    expect(download.headers['content-disposition']).toContain("filename*=UTF-8''certificat%20%C3%AEnregistrare.pdf");
    expect(download.rawPayload).toEqual(PDF('certificat'));
  });

  it('a file of another applicant is 404 under this dossier', async () => {
    const a = await applicant();
    const b = await applicant();
    const { payload, contentType } = await multipartPayload({}, [{ name: 'files[0]', filename: 'b.pdf', data: PDF('b') }]);
    const attached = await app.inject({ method: 'POST', url: `/api/staff/dossiers/${b.requestId}/documents`, payload, headers: { ...as(operator), 'content-type': contentType } });
    const fileId = attached.json().payload.documents[0].id;
    expect((await get(`/api/staff/dossiers/${b.requestId}/files/${fileId}`)).statusCode).toBe(200);
    const other = await get(`/api/staff/dossiers/${a.requestId}/files/${fileId}`);
    expect(other.statusCode).toBe(404);
    expect(other.json().message).toBe(DOSSIER_MESSAGES.fileNotFound);
  });
});

describe('the audit log', () => {
  it('GET …/audit lists the dossier\'s entries newest first; audit.csv downloads them with a BOM and quoting', async () => {
    const user = await applicant();
    await post(`/api/staff/dossiers/${user.requestId}/timeline`, { type: 'name_reservation', hasNameReservation: true, pfa_name: 'ȘTEFĂNESCU, "ION" PFA' });
    await post(`/api/staff/dossiers/${user.requestId}/finalize`, {});
    const list = (await get(`/api/staff/dossiers/${user.requestId}/audit`)).json().payload;
    expect(list.map((e: { action: string }) => e.action)).toEqual(['dossier.finalize', 'timeline.add']);

    const csv = await get(`/api/staff/audit.csv?dossier=${user.requestId}`);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toBe(`attachment; filename="audit-dosar-${user.requestId}.csv"`);
    expect(csv.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    const lines = csv.body.replace(/^\uFEFF/, '').trimEnd().split('\r\n');
    expect(lines[0]).toBe('id,at,staff_user_id,staff_email,actor,action,request_id,before,after');
    expect(lines).toHaveLength(3);
    expect(lines[2]).toContain(`,${operator.id},${operator.email},,timeline.add,${user.requestId},,`);
    expect(lines[2]).toContain('""pfa_name"":""ȘTEFĂNESCU, \\""ION\\"" PFA""');

    const all = await get('/api/staff/audit.csv');
    expect(all.statusCode).toBe(200);
    expect(all.body).toContain(`dossier.finalize,${user.requestId}`);
    expect((await get('/api/staff/audit.csv?dossier=abc')).statusCode).toBe(422);
  });

  it('csvField quotes delimiters, quotes and line breaks, and defuses formulas', () => {
    expect(csvField('simplu')).toBe('simplu');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('spune "da"')).toBe('"spune ""da"""');
    expect(csvField('rând\nnou')).toBe('"rând\nnou"');
    expect(csvField('=HYPERLINK("x")')).toBe('"\'=HYPERLINK(""x"")"');
    expect(csvField(null)).toBe('');
    expect(csvField(7)).toBe('7');
    expect(auditCsv([])).toBe('\uFEFFid,at,staff_user_id,staff_email,actor,action,request_id,before,after\r\n');
  });
});

describe('the operator API in English (issue 33: the console sends the operator\'s language as Accept-Language)', () => {
  const EN = { 'accept-language': 'en' };

  it('every message of the staff API has its English (server/messages/en.ts), none left in Romanian', () => {
    const texts = [DOSSIER_MESSAGES, DOSSIER_ACTION_MESSAGES, STAFF_AUTH_MESSAGES, TIMELINE_MESSAGES].flatMap((messages) => Object.values(messages).filter((m): m is string => typeof m === 'string'));
    expect(texts.length).toBeGreaterThan(20);
    for (const text of texts) expect(translate('en', text), text).not.toBe(text);
  });

  it('a 404, a 403, a 422 with its field errors and a success, each in English', async () => {
    const missing = await app.inject({ method: 'GET', url: '/api/staff/dossiers/999999999', headers: { ...as(operator), ...EN } });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toBe('The dossier was not found.');
    const forbidden = await app.inject({ method: 'GET', url: '/api/staff/dossiers', headers: { ...as(editor), ...EN } });
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.json().message).toBe('Your staff account has no access to this page.');
    const user = await applicant();
    const bad = await app.inject({ method: 'POST', url: `/api/staff/dossiers/${user.requestId}/timeline`, headers: { ...as(operator), ...EN }, payload: { type: 'name_reservation', date: '2026-02-30', hasNameReservation: 'poate' } });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().payload).toEqual({ date: ['The date must be a calendar day, in the format YYYY-MM-DD.'], hasNameReservation: ['The value must be true or false.'], pfa_name: ['This field is required.'] });
    const unknownFlow = await app.inject({ method: 'GET', url: '/api/staff/dossiers?flow=nu-exista', headers: { ...as(operator), ...EN } });
    expect(unknownFlow.statusCode).toBe(422);
    expect(unknownFlow.json().payload).toEqual({ flow: ['The flow does not exist.'] });
    const added = await app.inject({ method: 'POST', url: `/api/staff/dossiers/${user.requestId}/timeline`, headers: { ...as(operator), ...EN }, payload: { type: 'document_review', date: '2026-11-20', isDataComplete: true } });
    expect(added.statusCode).toBe(201);
    expect(added.json().message).toBe('The item was added to the dossier’s history.');
    // Romanian without the header, as before.
    expect((await get('/api/staff/dossiers/999999999')).json().message).toBe(DOSSIER_MESSAGES.notFound);
  });
});
