import type { FastifyPluginAsync } from 'fastify';
import { eq } from 'drizzle-orm';
import { PASSWORD_MIN_LENGTH } from '../../src/core/registration';
import type { ResetPayload } from '../../src/core/api-types';
import { users } from '../db/schema';
import { FieldValidationError, HttpError } from '../lib/http-errors';
import { hashPassword } from '../lib/passwords';
import { consumeToken, issueToken, revokeAllTokens } from '../lib/tokens';
import { normaliseEmail } from '../lib/users';
import { resetPasswordMail } from '../mail/templates';
import { NO_PAYLOAD, replies } from '../lib/api-schemas';

const RESET_TTL_MINUTES = 60;
export const RESET_PATH = '/api/password/reset/';

export default (async (app) => {
  const { db, config } = app;

  app.post<{ Body: { email: string } }>(
    '/password/forgot',
    {
      onRequest: app.addressLimit.forgotPassword,
      schema: {
        body: { type: 'object', required: ['email'], properties: { email: { type: 'string', format: 'email', maxLength: 254 } } },
        response: replies(NO_PAYLOAD, 'The same answer whether or not the address has an account'),
      },
    },
    async (request) => {
      const email = normaliseEmail(request.body.email);
      // The same answer whether or not the address has an account: nobody learns who is a customer.
      const answer = { message: 'Dacă adresa are un cont, ți-am trimis pe e-mail un link de resetare a parolei.', payload: null };
      if ((await app.limits.forgotEmail.blockedFor(email)) > 0) return answer;
      await app.limits.forgotEmail.hit(email);
      const [user] = await db.select().from(users).where(eq(users.email, email));
      if (!user) return answer;
      // The link and its mail are written together; the queue's worker sends it, so a down SMTP server
      // changes neither this answer nor its time.
      await db.transaction(async (tx) => {
        const { secret } = await issueToken(tx, user.id, 'password_reset', { ttlSeconds: RESET_TTL_MINUTES * 60 });
        const target = `${config.publicUrl}${RESET_PATH}${secret}`;
        const link = `${config.publicUrl}/password/reset?url=${encodeURIComponent(target)}`;
        await app.mailer.queue(tx, resetPasswordMail(user.email, config.productName, link, RESET_TTL_MINUTES, request.language));
      });
      app.mailer.wake();
      return answer;
    },
  );

  /** The post target carried by the mail's `url` parameter (spec 000 §2.3 "Reset password"). */
  app.post<{ Params: { token: string }; Body: ResetPayload }>(
    '/password/reset/:token',
    {
      schema: {
        params: { type: 'object', properties: { token: { type: 'string', maxLength: 200 } } },
        body: {
          type: 'object',
          required: ['password', 'password_confirmation'],
          properties: {
            password: { type: 'string', minLength: PASSWORD_MIN_LENGTH, maxLength: 200 },
            password_confirmation: { type: 'string', maxLength: 200 },
          },
        },
        response: replies(NO_PAYLOAD),
      },
    },
    async (request) => {
      // Refuse cross-site posts: only this app's own pages may reset a password.
      const origin = request.headers.origin;
      if (origin && origin !== new URL(config.publicUrl).origin && origin !== `${request.protocol}://${request.host}`) {
        throw new HttpError(403, 'Cererea nu este permisă.');
      }
      const { password, password_confirmation } = request.body;
      if (password !== password_confirmation) {
        throw new FieldValidationError({ password_confirmation: ['Parolele nu coincid.'] });
      }
      const found = await consumeToken(db, request.params.token, 'password_reset');
      if (!found) {
        throw new FieldValidationError({ token: ['Linkul de resetare a expirat sau a fost deja folosit. Cere unul nou.'] });
      }
      await db.update(users).set({ passwordHash: await hashPassword(password) }).where(eq(users.id, found.user.id));
      // Sign out everywhere: a new password ends every open session and voids every other link of the
      // user (auto-login, e-mail verification, other reset links); the e-mail's login lock is lifted.
      await revokeAllTokens(db, found.user.id);
      await app.limits.loginEmail.reset(found.user.email);
      return { message: 'Parola a fost schimbată. Te poți autentifica cu noua parolă.', payload: null };
    },
  );
}) satisfies FastifyPluginAsync;
