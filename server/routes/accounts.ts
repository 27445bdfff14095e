import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { eq } from 'drizzle-orm';
import { PASSWORD_MIN_LENGTH, PHONE_PATTERN } from '../../src/core/registration';
import type { AuthPayload, LoginPayload, RegisterPayload } from '../../src/core/api-types';
import { partners, userMeta, users } from '../db/schema';
import { FieldValidationError, HttpError } from '../lib/http-errors';
import { dummyPasswordHash, hashPassword, verifyPassword } from '../lib/passwords';
import { consumeToken, issueToken, revokeToken, type UserRow } from '../lib/tokens';
import { normaliseEmail, saveUserLanguage, sessionUser } from '../lib/users';
import { signIdToken } from '../lib/id-token';
import { queueVerificationMail } from './email';
import { recordRegistrationConsents } from '../privacy/consents';
import { randomBytes } from 'node:crypto';
import { dbId } from '../lib/input-limits';
import { NO_PAYLOAD, obj, replies, str } from '../lib/api-schemas';

/** Login, registration, auto-login: the signed-in user. */
const userReplies = replies({ $ref: 'session-user.json#' }, 'The signed-in user');

const emailSchema = { type: 'string', format: 'email', maxLength: 254 } as const;
const WRONG_CREDENTIALS = 'Datele de autentificare sunt incorecte.';

const loginBody = {
  type: 'object',
  required: ['email', 'password'],
  properties: {
    email: emailSchema,
    password: { type: 'string', minLength: 1, maxLength: 200 },
  },
} as const;

const authBody = {
  type: 'object',
  required: ['email', 'password', 'callbackUrl'],
  properties: {
    ...loginBody.properties,
    source: { type: 'string', maxLength: 100, default: '' },
    callbackUrl: { type: 'string', minLength: 1, maxLength: 2000 },
  },
} as const;

const registerBody = {
  type: 'object',
  required: ['email', 'password', 'phone', 'marketing_accepted', 'registration_type', 'partner_id'],
  properties: {
    email: emailSchema,
    password: { type: 'string', minLength: PASSWORD_MIN_LENGTH, maxLength: 200 },
    phone: { type: 'string', pattern: PHONE_PATTERN },
    referral_code: { type: ['string', 'null'], maxLength: 100 },
    cookies: {
      type: 'array',
      maxItems: 50,
      default: [],
      items: {
        type: 'object',
        required: ['key', 'value'],
        properties: { key: { type: 'string', minLength: 1, maxLength: 100 }, value: { type: 'string', maxLength: 2000 } },
      },
    },
    marketing_accepted: { type: 'boolean', const: true },
    registration_type: { type: 'integer', enum: [1, 2] },
    partner_id: dbId,
  },
} as const;

export default (async (app) => {
  const { db, config } = app;

  /** Checks e-mail and password with the per-e-mail and per-address limits; returns the user or throws. */
  async function checkCredentials(request: FastifyRequest, email: string, password: string): Promise<UserRow> {
    const key = normaliseEmail(email);
    const blocked = Math.max(await app.limits.loginEmail.blockedFor(key), await app.loginFailures.blockedFor(request));
    if (blocked > 0) {
      throw new HttpError(429, 'Prea multe încercări de autentificare. Te rugăm să încerci din nou peste câteva minute.', {
        retry_after: blocked,
      });
    }
    const [user] = await db.select().from(users).where(eq(users.email, key));
    const ok = await verifyPassword(password, user?.passwordHash ?? (await dummyPasswordHash()));
    // Only failures count: many people signing in correctly from one office address are never limited.
    if (!user || !ok) {
      await app.loginFailures.fail(request);
      await app.limits.loginEmail.hit(key);
      throw new FieldValidationError({ email: [WRONG_CREDENTIALS] }, WRONG_CREDENTIALS);
    }
    await app.limits.loginEmail.reset(key);
    return user;
  }

  /** Signs in, remembering the language the applicant uses (Accept-Language: their choice in the app) for later mails. */
  async function signIn(request: FastifyRequest | null, user: UserRow, source: string | null = null) {
    if (request) await saveUserLanguage(db, user.id, request.language);
    const { secret } = await issueToken(db, user.id, 'access', { ttlSeconds: config.accessTokenTtlDays * 86400, source });
    return { secret, user: await sessionUser(db, user, secret, config.productSlug) };
  }

  app.post<{ Body: LoginPayload }>('/login', { schema: { body: loginBody, response: userReplies } }, async (request) => {
    const user = await checkCredentials(request, request.body.email, request.body.password);
    return { message: 'Te-ai autentificat.', payload: (await signIn(request, user)).user };
  });

  app.post<{ Body: AuthPayload }>('/auth', { schema: { body: authBody, response: replies(obj({ id_token: str, access_token: str, redirect_url: str }), 'Where the browser goes (AuthResult)') } }, async (request) => {
    const { email, password, source, callbackUrl } = request.body;
    let callback: URL | null = null;
    try {
      callback = new URL(callbackUrl);
    } catch {
      callback = null;
    }
    if (!callback || !config.authCallbackOrigins.includes(callback.origin)) {
      throw new FieldValidationError({ callbackUrl: ['Adresa de întoarcere nu este permisă.'] }, 'Adresa de întoarcere nu este permisă.');
    }
    const user = await checkCredentials(request, email, password);
    const { secret } = await signIn(request, user, source || callback.origin);
    const idToken = await signIdToken(app, { sub: String(user.id), email: user.email, aud: source || callback.origin });
    callback.searchParams.set('id_token', idToken);
    callback.searchParams.set('access_token', secret);
    return {
      message: 'Te-ai autentificat.',
      payload: { id_token: idToken, access_token: secret, redirect_url: callback.toString() },
    };
  });

  app.post<{ Body: { token: string } }>(
    '/auto-login',
    { schema: { body: { type: 'object', required: ['token'], properties: { token: { type: 'string', minLength: 1, maxLength: 200 } } }, response: userReplies } },
    async (request) => {
      const found = await consumeToken(db, request.body.token, 'auto_login');
      if (!found) throw new FieldValidationError({ token: ['Linkul de autentificare a expirat sau a fost deja folosit.'] }, 'Linkul de autentificare a expirat sau a fost deja folosit.');
      // A hand-over opens a fresh browser (the phone) that has chosen nothing yet: the language stays.
      const { user } = await signIn(null, found.user);
      return { message: 'Te-ai autentificat.', payload: { ...user, redirect: found.token.redirect } };
    },
  );

  app.post('/logout', { onRequest: app.authenticate, schema: { response: replies(NO_PAYLOAD) } }, async (request) => {
    await revokeToken(db, request.tokenId as number);
    return { message: 'Te-ai deconectat.', payload: null };
  });

  app.post<{ Body: RegisterPayload }>('/register', { onRequest: app.addressLimit.register, schema: { body: registerBody, response: userReplies } }, async (request) => {
    const body = request.body;
    const email = normaliseEmail(body.email);
    const [partner] = await db.select().from(partners).where(eq(partners.id, body.partner_id));
    const errors: Record<string, string[]> = {};
    if (!partner || !partner.isActive) errors.partner_id = ['Tipul de abonament ales nu există.'];
    const [taken] = await db.select({ id: users.id }).from(users).where(eq(users.email, email));
    if (taken) errors.email = ['Există deja un cont cu această adresă de e-mail.'];
    if (Object.keys(errors).length) throw new FieldValidationError(errors);

    const passwordHash = await hashPassword(body.password);
    const user = await db.transaction(async (tx) => {
      const [created] = await tx
        .insert(users)
        .values({
          email,
          phone: body.phone,
          passwordHash,
          registrationType: body.registration_type,
          partnerId: body.partner_id,
          referralCode: body.referral_code?.trim() || null,
          marketingAccepted: body.marketing_accepted,
          frontendId: randomBytes(12).toString('base64url'),
        })
        .onConflictDoNothing()
        .returning();
      if (!created) return null;
      const meta = body.cookies.map((c) => ({ userId: created.id, metaKey: c.key, metaValue: c.value }));
      if (body.referral_code?.trim()) meta.push({ userId: created.id, metaKey: 'referral_code', metaValue: body.referral_code.trim() });
      if (meta.length) await tx.insert(userMeta).values(meta);
      // The checkbox accepts the terms, the privacy policy and marketing mails: recorded with the texts' version (issue 32).
      await recordRegistrationConsents(tx, created.id);
      // The verification mail is queued with the account: both exist, or neither (SMTP is not touched here).
      await queueVerificationMail(app, tx, created, request.language);
      return created;
    });
    // Two simultaneous registrations with one e-mail: the unique index lets only one through.
    if (!user) throw new FieldValidationError({ email: ['Există deja un cont cu această adresă de e-mail.'] });

    app.mailer.wake();
    return { message: 'Contul a fost creat.', payload: (await signIn(request, user)).user };
  });
}) satisfies FastifyPluginAsync;
