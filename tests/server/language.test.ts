import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { and, eq } from 'drizzle-orm';
import { userMeta } from '../../server/db/schema';
import { pickLanguage, translate } from '../../server/messages';
import { en } from '../../server/messages/en';
import { ro } from '../../server/messages/ro';
import { auth, mailsTo, partnerBySlug, placeAtStep, registerUser, testApp, uniqueEmail, type RegisteredUser } from './helpers';
import { TIMELINE_TYPES } from '../../src/core/timeline';
import { IDENTITY_MESSAGES } from '../../server/identity/service';
import { IDENTITY_CONTEXTS } from '../../server/identity/types';
import { STEP_MESSAGES } from '../../server/identity/queries';
import { TIMELINE_MESSAGES } from '../../server/registration/timeline';
import { COMPANY_MESSAGES } from '../../server/registration/company';
import { DOCUMENT_MESSAGES } from '../../server/registration/documents';
import { SIGNED_DOCUMENT_MESSAGES } from '../../server/registration/signed-documents';
import { SIGNATURE_MESSAGES } from '../../server/registration/signature';
import { DOSSIER_ACTION_MESSAGES } from '../../server/staff/dossier-actions';
import { STAFF_AUTH_MESSAGES } from '../../server/plugins/staff-auth';
import { USER_EXPORT_MESSAGES } from '../../server/routes/user-export';
import { STAFF_MESSAGES } from '../../server/routes/staff';
import { STATUS_MESSAGES } from '../../server/routes/status';
import { USER_PRIVACY_MESSAGES } from '../../server/routes/user-privacy';
import { PAYMENT_MESSAGES } from '../../server/routes/payment';
import { DOSSIER_MESSAGES } from '../../server/routes/staff-dossiers';
import { MESSAGES as MAILING_MESSAGES } from '../../server/registration/mailing';
import { SUBSCRIPTION_NOT_ENDED } from '../../server/privacy/erase';
import fs from 'node:fs';
import path from 'node:path';

/** Issue 18: the server's texts follow Accept-Language; the mails sent later follow the language kept for the user. */

let app: FastifyInstance;
beforeAll(async () => {
  app = await testApp();
});
afterAll(() => app.close());

const EN = { 'accept-language': 'en' };

async function languageRows(user: RegisteredUser) {
  return app.db
    .select({ value: userMeta.metaValue })
    .from(userMeta)
    .where(and(eq(userMeta.userId, user.user.id), eq(userMeta.metaKey, 'language')));
}

async function registerBody(email = uniqueEmail('lang')) {
  const partner = await partnerBySlug(app, 'neafiliat');
  return { email, password: 'parola-sigura', phone: '0712345678', referral_code: null, cookies: [], marketing_accepted: true, registration_type: 2, partner_id: partner.id };
}

describe('pickLanguage (Accept-Language)', () => {
  it('takes the first range we have, by weight; Romanian when none, unknown or malformed', () => {
    expect(pickLanguage('en')).toBe('en');
    expect(pickLanguage('en-GB,en;q=0.9')).toBe('en');
    expect(pickLanguage('ro-RO,ro;q=0.9,en;q=0.8')).toBe('ro');
    expect(pickLanguage('fr;q=0.9,en;q=0.5')).toBe('en');
    expect(pickLanguage('ro;q=0.2,en;q=0.7')).toBe('en');
    expect(pickLanguage('fr, de')).toBe('ro');
    expect(pickLanguage('*')).toBe('ro');
    expect(pickLanguage('en;q=0')).toBe('ro');
    expect(pickLanguage(';;;,,q=x')).toBe('ro');
    expect(pickLanguage(undefined)).toBe('ro');
  });

  it('the English catalogue has a text for every Romanian one, and translates the thrown literals it lists', () => {
    const keys = (o: object): string[] => Object.entries(o).flatMap(([k, v]) => (v && typeof v === 'object' && !Array.isArray(v) ? keys(v).map((s) => `${k}.${s}`) : [k]));
    expect(keys(en).filter((k) => !k.startsWith('byRomanian.'))).toEqual(keys(ro));
    expect(translate('en', 'Există deja un cont cu această adresă de e-mail.')).toBe('There is already an account with this e-mail address.');
    expect(translate('en', ro.envelope.unauthorized)).toBe(en.envelope.unauthorized);
    expect(translate('ro', 'Există deja un cont cu această adresă de e-mail.')).toBe('Există deja un cont cu această adresă de e-mail.');
  });
});

/**
 * Every text of the server's message tables an applicant or an operator can be answered, with each
 * varying part in its real values. Left out, as nobody reads them in a language of their choice: the
 * operator command's tables (OPS_MESSAGES, RETENTION_MESSAGES: a terminal that asks no language) and
 * the health probes' (HEALTH_MESSAGES).
 */
function answeredTexts(): [string, string][] {
  const fixed = {
    IDENTITY_MESSAGES, STEP_MESSAGES, TIMELINE_MESSAGES, COMPANY_MESSAGES, DOCUMENT_MESSAGES, SIGNED_DOCUMENT_MESSAGES, SIGNATURE_MESSAGES,
    DOSSIER_ACTION_MESSAGES, STAFF_AUTH_MESSAGES, USER_EXPORT_MESSAGES, STAFF_MESSAGES, STATUS_MESSAGES,
    USER_PRIVACY_MESSAGES, PAYMENT_MESSAGES, DOSSIER_MESSAGES, MAILING_MESSAGES, ERASURE: { subscriptionNotEnded: SUBSCRIPTION_NOT_ENDED },
  };
  const texts: [string, string][] = [];
  for (const [table, messages] of Object.entries(fixed)) {
    for (const [key, text] of Object.entries(messages)) if (typeof text === 'string') texts.push([`${table}.${key}`, text]);
  }
  for (const context of IDENTITY_CONTEXTS) {
    texts.push([`IDENTITY_MESSAGES.uploadFailed(${context})`, IDENTITY_MESSAGES.uploadFailed(context)]);
    texts.push([`IDENTITY_MESSAGES.uploadFirst(${context})`, IDENTITY_MESSAGES.uploadFirst(context)]);
  }
  for (const bytes of [500 * 1024, 10 * 1024 * 1024]) texts.push([`IDENTITY_MESSAGES.tooLarge(${bytes})`, IDENTITY_MESSAGES.tooLarge(bytes)]);
  for (const type of TIMELINE_TYPES) texts.push([`TIMELINE_MESSAGES.notOfType(${type})`, TIMELINE_MESSAGES.notOfType(type)]);
  const company = { cui: '123', name: 'ALFA SRL', legal_form: 'SRL' } as unknown as Parameters<typeof COMPANY_MESSAGES.notPfa>[1];
  texts.push(['COMPANY_MESSAGES.notPfa(SRL)', COMPANY_MESSAGES.notPfa('Ghișeu', company)]);
  texts.push(['COMPANY_MESSAGES.notPfa(—)', COMPANY_MESSAGES.notPfa('Ghișeu', { ...company, legal_form: null })]);
  return texts;
}

describe('every text the server answers applicants and operators exists in English', () => {
  it('each message table, with its varying parts, translates (issue 33)', () => {
    const texts = answeredTexts();
    expect(texts.length).toBeGreaterThan(100);
    expect(texts.filter(([, text]) => translate('en', text) === text).map(([name]) => name)).toEqual([]);
    // The varying part is kept, and translated where it is a word.
    expect(translate('en', TIMELINE_MESSAGES.notOfType('rejected'))).toBe('The field does not belong to the type “rejected”.');
    expect(translate('en', IDENTITY_MESSAGES.uploadFirst('document-back'))).toBe('Upload the back of the ID card first.');
    expect(translate('ro', TIMELINE_MESSAGES.notOfType('rejected'))).toBe(TIMELINE_MESSAGES.notOfType('rejected'));
  });

  it('so does every literal a route or rule throws (`new HttpError(422, \'…\')`, `FieldValidationError({ f: [\'…\'] })`)', () => {
    const serverDir = path.resolve(__dirname, '../../server');
    const files = fs.readdirSync(serverDir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
    const literals: [string, string][] = [];
    for (const file of files) {
      const source = fs.readFileSync(path.join(serverDir, file), 'utf8');
      for (const m of source.matchAll(/new HttpError\(\d+, '([^']+)'|FieldValidationError\(\{[^}]*?\[\s*'([^']+)'/g)) literals.push([file, m[1] ?? m[2]]);
    }
    expect(literals.length).toBeGreaterThan(5);
    expect(literals.filter(([, text]) => translate('en', text) === text)).toEqual([]);
  });
});

describe('field messages and the error envelope in the request’s language', () => {
  it('a 422 of the schema: English with Accept-Language en, Romanian without it or for a language we lack', async () => {
    const body = { email: 'fara-arond', password: 'abc' };
    const english = await app.inject({ method: 'POST', url: '/api/register', payload: body, headers: EN });
    expect(english.statusCode).toBe(422);
    expect(english.json().message).toBe('The data sent is not valid.');
    expect(english.json().payload).toMatchObject({
      email: ['The e-mail address is not valid.'],
      password: ['The password must have at least 6 characters.'],
      phone: ['The phone number is required.'],
      marketing_accepted: ['You must accept the terms and conditions.'],
    });
    for (const headers of [{}, { 'accept-language': 'fr-FR,de;q=0.8' }]) {
      const romanian = await app.inject({ method: 'POST', url: '/api/register', payload: body, headers });
      expect(romanian.json().message).toBe('Datele trimise nu sunt valide.');
      expect(romanian.json().payload).toMatchObject({ email: ['Adresa de e-mail nu este validă.'], phone: ['Numărul de telefon este obligatoriu.'] });
    }
  });

  it('a field error a route throws (an e-mail already taken), and a sign-in refused', async () => {
    const { email, password } = await registerUser(app);
    const taken = await app.inject({ method: 'POST', url: '/api/register', payload: await registerBody(email), headers: EN });
    expect(taken.statusCode).toBe(422);
    expect(taken.json().payload).toEqual({ email: ['There is already an account with this e-mail address.'] });
    const wrong = await app.inject({ method: 'POST', url: '/api/login', payload: { email, password: `${password}-nu` }, headers: EN });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json()).toEqual({ message: 'The sign-in details are incorrect.', payload: { email: ['The sign-in details are incorrect.'] } });
  });

  it('a step’s data checked against its schema (steps/next), a 401 and a success message', async () => {
    const user = await registerUser(app);
    await placeAtStep(app, user, 'requesting-company-step-2');
    const next = await app.inject({
      method: 'POST',
      url: '/api/registration/steps/next',
      payload: { current_step_identifier: 'requesting-company-step-2' },
      headers: { ...auth(user.token), ...EN },
    });
    expect(next.statusCode).toBe(422);
    expect(next.json().payload).toEqual({ activity_id: ['This field is required.'] });
    const signedOut = await app.inject({ method: 'GET', url: '/api/registration/open', headers: EN });
    expect(signedOut.statusCode).toBe(401);
    expect(signedOut.json().message).toBe('Your session has expired. Please sign in again.');
    const login = await app.inject({ method: 'POST', url: '/api/login', payload: { email: user.email, password: user.password }, headers: EN });
    expect(login.json().message).toBe('You are signed in.');
  });
});

describe('PUT /api/user/language', () => {
  it('keeps the language for the user (one row), answering in it', async () => {
    const user = await registerUser(app);
    const res = await app.inject({ method: 'PUT', url: '/api/user/language', payload: { language: 'en' }, headers: auth(user.token) });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'The language was saved.', payload: { language: 'en' } });
    expect(await languageRows(user)).toEqual([{ value: 'en' }]);
    const back = await app.inject({ method: 'PUT', url: '/api/user/language', payload: { language: 'ro' }, headers: auth(user.token) });
    expect(back.json().message).toBe('Limba a fost salvată.');
    expect(await languageRows(user)).toEqual([{ value: 'ro' }]);
  });

  it('refuses a language we lack or a missing one (422, nothing changed), and answers 401 without a token', async () => {
    const user = await registerUser(app);
    const before = await languageRows(user);
    for (const payload of [{ language: 'fr' }, {}, { language: 3 }]) {
      const res = await app.inject({ method: 'PUT', url: '/api/user/language', payload, headers: { ...auth(user.token), ...EN } });
      expect(res.statusCode).toBe(422);
      expect(res.json().payload.language).toEqual([expect.stringMatching(/not valid|required/)]);
    }
    expect(await languageRows(user)).toEqual(before);
  });
});

describe('mails in the applicant’s language', () => {
  it('the verification mail of an English registration, and the language kept at sign-in', async () => {
    const body = await registerBody();
    const res = await app.inject({ method: 'POST', url: '/api/register', payload: body, headers: EN });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe('Your account was created.');
    const [mail] = await mailsTo(app, body.email);
    expect(mail.subject).toBe('Confirm your e-mail address for Ghișeu');
    expect(mail.text).toContain('Welcome to Ghișeu!');
    expect(mail.html).toContain('<html lang="en">');
    const user = { email: body.email, password: body.password, user: res.json().payload, token: res.json().payload.access_token } as RegisteredUser;
    expect(await languageRows(user)).toEqual([{ value: 'en' }]);
    // A sign-in in Romanian changes it back; a Romanian registration mails in Romanian.
    await app.inject({ method: 'POST', url: '/api/login', payload: { email: body.email, password: body.password } });
    expect(await languageRows(user)).toEqual([{ value: 'ro' }]);
    const romanian = await registerUser(app);
    expect((await mailsTo(app, romanian.email))[0].subject).toBe('Confirmă adresa de e-mail pentru Ghișeu');
  });

  it('the reset mail in the language of the forgot-password request', async () => {
    const { email } = await registerUser(app);
    const res = await app.inject({ method: 'POST', url: '/api/password/forgot', payload: { email }, headers: EN });
    expect(res.json().message).toBe('If the address has an account, we have e-mailed you a link to reset the password.');
    const reset = (await mailsTo(app, email)).find((m) => m.subject === 'Reset the password of your Ghișeu account');
    expect(reset?.text).toContain('The link is valid for 60 minutes');
  });

  it('the payment receipt, sent later, in the language chosen before (whatever the paying request says)', async () => {
    const user = await registerUser(app, { partner: 'icredit' });
    expect((await app.inject({ method: 'PUT', url: '/api/user/language', payload: { language: 'en' }, headers: auth(user.token) })).statusCode).toBe(200);
    await placeAtStep(app, user, 'requesting-company-step-9');
    const redirect = await app.inject({ method: 'POST', url: '/api/stripe/redirect', payload: { selected_stripe_id: 'price_ghiseu_icredit_monthly' }, headers: auth(user.token) });
    const id = (redirect.json().payload.redirect_url as string).split('/').pop()!;
    expect((await app.inject({ method: 'POST', url: `/api/checkout/${id}/pay`, payload: {}, headers: auth(user.token) })).statusCode).toBe(200);
    const receipt = (await mailsTo(app, user.email)).find((m) => m.subject === 'Payment received – Ghișeu');
    expect(receipt?.text).toContain('Your payment was received. Thank you!');
    expect(receipt?.text).toContain('Amount: 130,00 lei');
    expect(receipt?.text).toContain('For: Ghișeu subscription – iCredit');
    expect(receipt?.text).toContain('Subscription: 130 lei/month for the first 3 months, then 72 lei/month');
    expect(receipt?.text).toMatch(/Date: \d{1,2} [A-Z][a-z]+ \d{4}/);
  });
});
