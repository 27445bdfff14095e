import type { FastifyPluginAsync } from 'fastify';
import { FieldValidationError, HttpError } from '../lib/http-errors';
import { arrayOf, bool, int, NO_PAYLOAD, nullStr, obj, replies, str } from '../lib/api-schemas';
import { verifyPassword } from '../lib/passwords';
import { eq } from 'drizzle-orm';
import { users } from '../db/schema';
import type { UserRow } from '../lib/tokens';
import { consentState, withdrawMarketing } from '../privacy/consents';
import { describeErasure, eraseAccount } from '../privacy/erase';
import { EXPORTS_PER_HOUR } from './user-export';

export const USER_PRIVACY_MESSAGES = {
  erased: 'Contul tău a fost șters. Ți-am trimis un e-mail de confirmare.',
  wrongPassword: 'Parola nu este corectă.',
  tooMany: 'Prea multe încercări cu o parolă greșită. Te rugăm să încerci din nou peste câteva minute.',
  marketingWithdrawn: 'Nu vei mai primi comunicări de marketing de la noi.',
} as const;

const marketing = obj({ accepted: bool, accepted_at: nullStr, withdrawn_at: nullStr });
const privacy = obj({
  email: str,
  consents: obj({ terms: { type: ['object', 'null'], properties: { version: str, accepted_at: str } }, marketing }),
  retention: obj({ unfinished_days: int, warning_days: int, id_media_days: int, lost_days: int, accounting_years: int, contract_years: int }),
  after_erasure: arrayOf(obj({ kind: { type: 'string', enum: ['payment', 'contract', 'trade_register'] }, count: int, keep_until: nullStr })),
  exports_per_hour: int,
});

/**
 * The applicant's own data (issue 32, the "Datele tale" page, `/contul-meu/date`):
 * - `GET    /api/user/privacy`            consents, retention periods, what an erasure would keep and why
 * - `DELETE /api/user/consents/marketing` withdraws the marketing consent (as the unsubscribe link does)
 * - `DELETE /api/user`                    `{ password }`: erases the account for good (server/privacy/erase.ts)
 * The export is `GET /api/user/export` (user-export.ts).
 */
export default (async (app) => {
  app.get('/user/privacy', { onRequest: app.authenticate, schema: { response: replies(privacy, 'What the product keeps about the applicant, and why') } }, async (request) => {
    const user = request.user as UserRow;
    const plan = await describeErasure(app.db, user.id, app.config);
    const { retention } = app.config;
    return {
      message: '',
      payload: {
        email: user.email,
        consents: await consentState(app.db, user.id),
        retention: {
          unfinished_days: retention.unfinishedDays,
          warning_days: retention.warningDays,
          id_media_days: retention.idMediaDays,
          lost_days: retention.lostDays,
          accounting_years: retention.accountingYears,
          contract_years: retention.contractYears,
        },
        after_erasure: plan?.kept ?? [],
        exports_per_hour: EXPORTS_PER_HOUR,
      },
    };
  });

  app.delete('/user/consents/marketing', { onRequest: app.authenticate, schema: { response: replies(marketing, 'The marketing consent, withdrawn') } }, async (request) => {
    const user = request.user as UserRow;
    await app.db.transaction(async (tx) => {
      await withdrawMarketing(tx, user.id);
      // The unsubscribe link's flag: no notification mails either, as that link does.
      await tx.update(users).set({ unsubscribedAt: new Date() }).where(eq(users.id, user.id));
    });
    return { message: USER_PRIVACY_MESSAGES.marketingWithdrawn, payload: (await consentState(app.db, user.id)).marketing };
  });

  app.delete<{ Body: { password: string } }>(
    '/user',
    {
      onRequest: app.authenticate,
      schema: {
        body: { type: 'object', required: ['password'], additionalProperties: false, properties: { password: { type: 'string', minLength: 1, maxLength: 200 } } },
        response: replies(NO_PAYLOAD, 'The account is erased'),
      },
    },
    async (request) => {
      const user = request.user as UserRow;
      // The password typed again: limited as sign-in attempts are, so a stolen session cannot guess it.
      const blocked = await app.limits.loginEmail.blockedFor(user.email);
      if (blocked > 0) throw new HttpError(429, USER_PRIVACY_MESSAGES.tooMany, { retry_after: blocked });
      if (!(await verifyPassword(request.body.password, user.passwordHash))) {
        await app.limits.loginEmail.hit(user.email);
        throw new FieldValidationError({ password: [USER_PRIVACY_MESSAGES.wrongPassword] });
      }
      await eraseAccount(app, user.id, { by: 'applicant' });
      return { message: USER_PRIVACY_MESSAGES.erased, payload: null };
    },
  );
}) satisfies FastifyPluginAsync;
