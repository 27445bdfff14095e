import type { FastifyPluginAsync } from 'fastify';
import { FieldValidationError, HttpError } from '../lib/http-errors';
import { dummyPasswordHash, verifyPassword } from '../lib/passwords';
import { normaliseEmail } from '../lib/users';
import { NO_PAYLOAD, dateTime, int, obj, replies, str } from '../lib/api-schemas';
import { issueStaffSession, revokeStaffSession, staffUserByEmail, staffView, STAFF_ROLES } from '../staff/accounts';

export const STAFF_MESSAGES = {
  wrongCredentials: 'Datele de autentificare sunt incorecte.',
  tooMany: 'Prea multe încercări de autentificare. Te rugăm să încerci din nou peste câteva minute.',
  signedIn: 'Te-ai autentificat.',
  signedOut: 'Te-ai deconectat.',
} as const;

/** A staff member as the API answers it. */
export const staffMemberSchema = obj({ id: int, email: str, role: { type: 'string', enum: [...STAFF_ROLES] }, created_at: dateTime });
const staffSessionSchema = obj({ access_token: str, expires_at: dateTime, staff: staffMemberSchema });

const loginBody = {
  type: 'object',
  required: ['email', 'password'],
  properties: {
    email: { type: 'string', format: 'email', maxLength: 254 },
    password: { type: 'string', minLength: 1, maxLength: 200 },
  },
} as const;

/**
 * Staff sign-in (issue 18), under `/api/staff`:
 * - `POST /staff/login` `{ email, password }` → `{ access_token, expires_at, staff }`: the applicants'
 *   limits (failed logins per e-mail — counted apart from an applicant's with the same address — and
 *   per client address); 422 on `email` for a wrong pair.
 * - `POST /staff/logout`: ends the session.
 * - `GET  /staff/me`: the signed-in staff member.
 * Staff sessions live in `staff_sessions`; an applicant's token answers 401 here, and a staff
 * session answers 401 on the applicants' routes.
 */
export default (async (app) => {
  const { db } = app;

  app.post<{ Body: { email: string; password: string } }>(
    '/staff/login',
    { schema: { body: loginBody, response: replies(staffSessionSchema, 'The staff session: its bearer token and the staff member') } },
    async (request) => {
      const email = normaliseEmail(request.body.email);
      const key = `staff:${email}`;
      const blocked = Math.max(await app.limits.loginEmail.blockedFor(key), await app.loginFailures.blockedFor(request));
      if (blocked > 0) throw new HttpError(429, STAFF_MESSAGES.tooMany, { retry_after: blocked });
      const staff = await staffUserByEmail(db, email);
      const ok = await verifyPassword(request.body.password, staff?.passwordHash ?? (await dummyPasswordHash()));
      if (!staff || !ok) {
        await app.loginFailures.fail(request);
        await app.limits.loginEmail.hit(key);
        throw new FieldValidationError({ email: [STAFF_MESSAGES.wrongCredentials] }, STAFF_MESSAGES.wrongCredentials);
      }
      await app.limits.loginEmail.reset(key);
      const { secret, expiresAt } = await issueStaffSession(db, staff.id);
      return { message: STAFF_MESSAGES.signedIn, payload: { access_token: secret, expires_at: expiresAt.toISOString(), staff: staffView(staff) } };
    },
  );

  app.post('/staff/logout', { onRequest: app.staffOnly(), schema: { response: replies(NO_PAYLOAD) } }, async (request) => {
    await revokeStaffSession(db, request.staffSessionId as number);
    return { message: STAFF_MESSAGES.signedOut, payload: null };
  });

  app.get('/staff/me', { onRequest: app.staffOnly(), schema: { response: replies(staffMemberSchema, 'The signed-in staff member') } }, async (request) => {
    return { message: '', payload: staffView(request.staff!) };
  });
}) satisfies FastifyPluginAsync;
