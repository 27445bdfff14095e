import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { eq } from 'drizzle-orm';
import { createHash } from 'node:crypto';
import { processedWebhooks } from '../../server/db/schema';
import { cnpControlDigit } from '../../server/identity/romanian-person';
import { IdentityProviderError } from '../../server/identity/types';
import { VeriffClient, decisionFromVeriff, veriffSignature } from '../../server/identity/veriff';
import { FakeVeriff, signWebhook } from './fake-veriff';
import { auth, registerUser, testApp } from './helpers';
import { JPEG, PNG, WEBP, createSession, lastSession, sessionWithUploads, submit, upload, verify } from './identity-helpers';
import { localeText } from '../copy';

/** The Romanian reason of a Veriff code, as the identity step's copy has it (locales/ro/steps.json). */
const reason = (code: number) => localeText(`steps:identity.reasons.${code}`);

const API_KEY = 'test-api-key-0b1c';
const SECRET = 'test-shared-secret-9f8e7d';

let fake: FakeVeriff;
let app: FastifyInstance;
beforeAll(async () => {
  fake = await new FakeVeriff(API_KEY, SECRET).start();
  app = await testApp({ veriffApiKey: API_KEY, veriffSharedSecret: SECRET, veriffBaseUrl: fake.url });
});
afterAll(async () => {
  await app.close();
  await fake.stop();
});

const first12 = '190010112345';
const CNP = `${first12}${cnpControlDigit(first12)}`;
const approved = {
  status: 'approved',
  code: 9001,
  reason: null,
  reasonCode: null,
  decisionTime: '2026-11-20T10:00:00.000Z',
  person: { firstName: 'Ion', lastName: 'Popescu', idNumber: CNP, placeOfBirth: 'Mun. Brașov, jud. Brașov', dateOfBirth: '1990-01-01' },
};

describe('Veriff client against a local fake Veriff', () => {
  it('signs every call: create, media, submit, decision, delete', async () => {
    const client = new VeriffClient({ apiKey: API_KEY, sharedSecret: SECRET, baseUrl: fake.url });
    const from = fake.requests.length;
    const { sessionId } = await client.createSession({ vendorData: 'c0ffee' });
    expect(fake.sessions.get(sessionId)).toMatchObject({ vendorData: 'c0ffee', status: 'created' });

    await client.uploadMedia(sessionId, { context: 'document-front', data: PNG, contentType: 'image/png', fileName: 'fata.png' });
    expect(fake.sessions.get(sessionId)!.media).toEqual([{ context: 'document-front', content: `data:image/png;base64,${PNG.toString('base64')}` }]);

    await client.submit(sessionId);
    expect(fake.sessions.get(sessionId)!.status).toBe('submitted');
    expect(await client.decision(sessionId)).toBeNull();

    fake.decide(sessionId, approved);
    expect(await client.decision(sessionId)).toEqual({
      status: 2,
      providerStatus: 'approved',
      code: 9001,
      reasonCode: null,
      reason: null,
      person: { first_name: 'Ion', last_name: 'Popescu', personal_code: CNP, place_of_birth: 'Mun. Brașov, jud. Brașov', date_of_birth: '1990-01-01', address: null },
      decidedAt: new Date('2026-11-20T10:00:00.000Z'),
    });

    await client.deleteSession(sessionId);
    expect(fake.sessions.get(sessionId)!.deleted).toBe(true);

    const calls = fake.requests.slice(from);
    expect(calls.map((c) => `${c.method} ${c.path.replace(sessionId, ':id')}`)).toEqual([
      'POST /v1/sessions',
      'POST /v1/sessions/:id/media',
      'PATCH /v1/sessions/:id',
      'GET /v1/sessions/:id/decision',
      'GET /v1/sessions/:id/decision',
      'DELETE /v1/sessions/:id',
    ]);
    expect(calls.every((c) => c.authentic)).toBe(true);
  });

  it('a wrong shared secret is refused by Veriff and surfaces as a provider error', async () => {
    const client = new VeriffClient({ apiKey: API_KEY, sharedSecret: 'wrong', baseUrl: fake.url });
    const error = await client.createSession({ vendorData: 'x' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(IdentityProviderError);
    expect((error as IdentityProviderError).status).toBe(401);
    expect(fake.requests.at(-1)!.authentic).toBe(false);
  });

  it('VERIFF_API_KEY without VERIFF_SHARED_SECRET stops the server at start', async () => {
    await expect(testApp({ veriffApiKey: API_KEY, veriffSharedSecret: null })).rejects.toThrow('VERIFF_SHARED_SECRET is required');
  });

  it('an unreachable Veriff is a provider error', async () => {
    const client = new VeriffClient({ apiKey: API_KEY, sharedSecret: SECRET, baseUrl: 'http://127.0.0.1:9', timeoutMs: 2000 });
    await expect(client.decision('abc')).rejects.toBeInstanceOf(IdentityProviderError);
  });

  it('decisions map to status 2 or 3 with a Romanian reason; review is no decision yet', () => {
    expect(decisionFromVeriff({ id: 'a', status: 'declined', code: 9102, reason: 'Suspected document tampering', reasonCode: 102 })).toMatchObject({
      status: 3,
      reasonCode: 102,
      reason: reason(102),
    });
    expect(decisionFromVeriff({ id: 'a', status: 'resubmission_requested', code: 9103, reasonCode: '204' })).toMatchObject({
      status: 3,
      reasonCode: 204,
      reason: reason(204),
    });
    expect(decisionFromVeriff({ id: 'a', status: 'expired', code: 9104 })).toMatchObject({
      status: 3,
      reason: reason(9104),
    });
    expect(decisionFromVeriff({ id: 'a', status: 'declined', reasonCode: 999 })?.reason).toBeNull();
    expect(decisionFromVeriff({ id: 'a', status: 'review' })).toBeNull();
    expect(decisionFromVeriff(null)).toBeNull();
  });

  it('the home address is the first fullAddress of person.addresses, one clean line; any other shape is none', () => {
    const address = (addresses: unknown) => decisionFromVeriff({ id: 'a', status: 'approved', person: { firstName: 'Ion', addresses } as never })?.person?.address;
    expect(address([{ fullAddress: 'Com. Albac, Sat Rogoz, Jud. Alba', parsedAddress: { city: 'Rogoz' } }])).toBe('Com. Albac, Sat Rogoz, Jud. Alba');
    expect(address([{ fullAddress: '  ' }, { fullAddress: 'Mun. Cluj-Napoca,\n Str. Memorandumului\u0000 nr. 10' }])).toBe('Mun. Cluj-Napoca, Str. Memorandumului nr. 10');
    expect(address([{ fullAddress: 'x'.repeat(1000) }])).toHaveLength(300);
    for (const other of [undefined, null, 'Com. Albac', {}, [null], [{ fullAddress: 12 }], [{ parsedAddress: { city: 'Rogoz' } }]]) expect(address(other)).toBeNull();
  });
});

describe('identity routes with Veriff configured', () => {
  it('the whole life cycle goes through Veriff; approval fills the profile', async () => {
    const user = await registerUser(app);
    const { session } = await sessionWithUploads(app, user.token);
    const remote = fake.sessions.get(session.session_id)!;
    expect(remote.vendorData).toBe(session.custom_id);
    expect(remote.media.map((m) => m.context)).toEqual(['document-front', 'document-back', 'face']);
    expect(remote.media[1].content.startsWith('data:image/jpeg;base64,')).toBe(true);

    expect((await submit(app, user.token, session.session_id)).json().payload).toEqual({ status: 4 });
    expect(remote.status).toBe('submitted');
    expect((await verify(app, user.token, session)).json().payload).toEqual({ status: 4 });

    fake.decide(session.session_id, approved);
    expect((await verify(app, user.token, session)).json().payload).toEqual({ status: 2 });
    const { profile } = (await app.inject({ method: 'GET', url: '/api/registration/open', headers: auth(user.token) })).json().payload;
    expect(profile).toMatchObject({ first_name: 'Ion', last_name: 'Popescu', personal_code: CNP, place_of_birth: 'Mun. Brașov, jud. Brașov' });
    expect(profile.document_address).toBeUndefined();

    // Deleting also deletes at Veriff (best effort).
    await app.inject({ method: 'DELETE', url: '/api/veriff/delete-session', payload: session, headers: auth(user.token) });
    expect(remote.deleted).toBe(true);
  });

  it('Veriff down: create and upload fail with the spec copy and record nothing', async () => {
    const user = await registerUser(app);
    fake.failNext = 1;
    const create = await app.inject({ method: 'POST', url: '/api/veriff/create-veriff-session', payload: {}, headers: auth(user.token) });
    expect(create.statusCode).toBe(502);
    expect(create.json().message).toBe('Nu s-a putut iniția sesiunea de verificare. Te rugăm să încerci din nou.');
    expect(await lastSession(app, user.token)).toBeNull();

    const session = await createSession(app, user.token);
    fake.failNext = 1;
    const failed = await upload(app, user.token, session.session_id, 'document-front', { filename: 'fata.png', data: PNG });
    expect(failed.statusCode).toBe(502);
    expect(failed.json().message).toBe('Încărcarea pentru fața buletinului a eșuat. Te rugăm să încerci din nou.');
    expect((await lastSession(app, user.token)).uploads['document-front']).toBeNull();

    await upload(app, user.token, session.session_id, 'document-front', { filename: 'fata.png', data: PNG });
    await upload(app, user.token, session.session_id, 'document-back', { filename: 'spate.jpg', data: JPEG });
    await upload(app, user.token, session.session_id, 'face', { filename: 'selfie.webp', data: WEBP });
    fake.failNext = 1;
    const notSubmitted = await submit(app, user.token, session.session_id);
    expect(notSubmitted.statusCode).toBe(502);
    expect(notSubmitted.json().message).toBe('Trimiterea pentru verificare a eșuat. Te rugăm să încerci din nou.');
    expect(await lastSession(app, user.token)).toMatchObject({ status: 1, submitted: false });

    // A failing decision read is no answer yet: the browser keeps polling.
    expect((await submit(app, user.token, session.session_id)).json().payload).toEqual({ status: 4 });
    fake.failNext = 1;
    const polled = await verify(app, user.token, session);
    expect(polled.statusCode).toBe(200);
    expect(polled.json().payload).toEqual({ status: 4 });
  });
});

describe('POST /api/veriff/decision-webhook', () => {
  async function submittedSession() {
    const user = await registerUser(app);
    const { session } = await sessionWithUploads(app, user.token);
    await submit(app, user.token, session.session_id);
    return { user, session };
  }

  const send = (body: string, headers: Record<string, string>) =>
    app.inject({ method: 'POST', url: '/api/veriff/decision-webhook', payload: body, headers: { 'content-type': 'application/json', ...headers } });

  const declined = (sessionId: string, vendorData: string) =>
    JSON.stringify({
      status: 'success',
      verification: { id: sessionId, code: 9102, status: 'declined', reason: 'Known fraud', reasonCode: 106, vendorData, person: null },
      technicalData: { ip: '127.0.0.1' },
    });

  it('a signed decision is applied', async () => {
    const { user, session } = await submittedSession();
    const body = JSON.stringify({ status: 'success', verification: { id: session.session_id, vendorData: session.custom_id, ...approved } });
    const res = await send(body, { 'x-auth-client': API_KEY, 'x-hmac-signature': signWebhook(body, SECRET) });
    expect(res.statusCode).toBe(200);
    expect(await lastSession(app, user.token)).toMatchObject({ status: 2 });
    const { profile } = (await app.inject({ method: 'GET', url: '/api/registration/open', headers: auth(user.token) })).json().payload;
    expect(profile).toMatchObject({ first_name: 'Ion', personal_code: CNP });
  });

  it("a signed decision with the card's address (address extraction on) fills the home address", async () => {
    const { user, session } = await submittedSession();
    const person = { ...approved.person, addresses: [{ fullAddress: 'COM. ALBAC, SAT ROGOZ, STR. PRINCIPALA NR. 12, JUD. ALBA' }] };
    const body = JSON.stringify({ status: 'success', verification: { id: session.session_id, vendorData: session.custom_id, ...approved, person } });
    expect((await send(body, { 'x-auth-client': API_KEY, 'x-hmac-signature': signWebhook(body, SECRET) })).statusCode).toBe(200);
    const { profile } = (await app.inject({ method: 'GET', url: '/api/registration/open', headers: auth(user.token) })).json().payload;
    expect(profile).toMatchObject({
      document_address: 'COM. ALBAC, SAT ROGOZ, STR. PRINCIPALA NR. 12, JUD. ALBA',
      county_id: 1,
      county: 'Alba',
      city: 'Rogoz, comuna Albac',
      street: 'Principala',
      number: '12',
      postal_code: '517018',
      address_1: 'Str. Principala nr. 12',
      address_2: 'Rogoz, comuna Albac, județul Alba, 517018',
    });
  });

  it('a tampered body, a wrong signature or another API key is refused (401) and changes nothing', async () => {
    const { user, session } = await submittedSession();
    const body = declined(session.session_id, session.custom_id);
    const signature = signWebhook(body, SECRET);
    const tampered = body.replace('"declined"', '"approved"');
    expect((await send(tampered, { 'x-auth-client': API_KEY, 'x-hmac-signature': signature })).statusCode).toBe(401);
    expect((await send(body, { 'x-auth-client': API_KEY, 'x-hmac-signature': signWebhook(body, 'other-secret') })).statusCode).toBe(401);
    expect((await send(body, { 'x-auth-client': 'other-key', 'x-hmac-signature': signature })).statusCode).toBe(401);
    const unsigned = await send(body, { 'x-auth-client': API_KEY });
    expect(unsigned.statusCode).toBe(401);
    expect(unsigned.json()).toEqual({ message: 'Semnătura cererii nu este validă.', payload: null });
    expect(await lastSession(app, user.token)).toMatchObject({ status: 4 });
    const digest = createHash('sha256').update(tampered).digest('hex');
    expect(await app.db.select().from(processedWebhooks).where(eq(processedWebhooks.digest, digest))).toEqual([]);
  });

  it('a replay of a processed body is acknowledged and changes nothing', async () => {
    const { user, session } = await submittedSession();
    const body = declined(session.session_id, session.custom_id);
    const headers = { 'x-auth-client': API_KEY, 'x-hmac-signature': signWebhook(body, SECRET) };
    const first = await send(body, headers);
    expect(first.statusCode).toBe(200);
    expect(first.json().message).toBe('OK');
    const error = await app.inject({
      method: 'GET',
      url: `/api/veriff/get-veriff-error?session_id=${session.session_id}&custom_id=${session.custom_id}`,
      headers: auth(user.token),
    });
    expect(error.json().payload).toEqual({ code: 106, translated_reason: reason(106) });

    // The user starts again; a replay of the old decision must not touch anything.
    const next = await createSession(app, user.token);
    const replay = await send(body, headers);
    expect(replay.statusCode).toBe(200);
    expect(replay.json().message).toBe('Notificarea a fost deja procesată.');
    expect(await lastSession(app, user.token)).toMatchObject({ session_id: next.session_id, status: 1 });
    const digest = createHash('sha256').update(body).digest('hex');
    expect(await app.db.select().from(processedWebhooks).where(eq(processedWebhooks.digest, digest))).toHaveLength(1);
  });

  it('newer vrf- headers are accepted too; an unknown session is acknowledged', async () => {
    const body = declined('00000000-0000-4000-8000-000000000000', 'x');
    const res = await send(body, { 'vrf-auth-client': API_KEY, 'vrf-hmac-signature': signWebhook(body, SECRET).toUpperCase() });
    expect(res.statusCode).toBe(200);
  });

  it('a signed body that is not a decision is refused with 422', async () => {
    const body = JSON.stringify({ status: 'success' });
    const res = await send(body, { 'x-auth-client': API_KEY, 'x-hmac-signature': signWebhook(body, SECRET) });
    expect(res.statusCode).toBe(422);
    expect(res.json().payload).toEqual({ verification: ['Câmpul este obligatoriu.'] });
  });

  it('does not exist while the simulator is in use', async () => {
    const simulator = await testApp();
    try {
      const body = JSON.stringify({ verification: { id: 'a', status: 'approved' } });
      const res = await simulator.inject({
        method: 'POST',
        url: '/api/veriff/decision-webhook',
        payload: body,
        headers: { 'content-type': 'application/json', 'x-auth-client': API_KEY, 'x-hmac-signature': veriffSignature(body, SECRET) },
      });
      expect(res.statusCode).toBe(404);
    } finally {
      await simulator.close();
    }
  });
});
