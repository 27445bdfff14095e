import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { and, eq, isNull } from 'drizzle-orm';
import { users } from '../db/schema';
import { consumeToken, hashToken, issueToken, type UserRow } from '../lib/tokens';
import { tokens } from '../db/schema';
import { verifyEmailMail } from '../mail/templates';
import type { Db } from '../db';
import { redirectReplies } from '../lib/api-schemas';
import type { Language } from '../messages';

const VERIFY_TTL_SECONDS = 7 * 24 * 3600;

/** Issues the verification link and queues its mail with `db`: the transaction that created the user. */
export async function queueVerificationMail(app: FastifyInstance, db: Db, user: UserRow, language: Language): Promise<void> {
  const { secret } = await issueToken(db, user.id, 'email_verify', { ttlSeconds: VERIFY_TTL_SECONDS });
  const { publicUrl, productName } = app.config;
  await app.mailer.queue(
    db,
    verifyEmailMail(user.email, productName, `${publicUrl}/api/email/verify/${secret}`, `${publicUrl}/unsubscribe/${user.frontendId}`, language),
  );
}

export default (async (app) => {
  /**
   * The link in the verification mail. First use: marks the address verified and shows
   * /email/verify-success/; any later use of a link of an already verified user:
   * /email/already-verified/. An unknown or expired link shows the 404 page.
   */
  app.get<{ Params: { token: string } }>(
    '/email/verify/:token',
    {
      schema: {
        params: { type: 'object', properties: { token: { type: 'string', maxLength: 200 } } },
        response: redirectReplies('To the page saying whether the address was verified'),
      },
    },
    async (request, reply) => {
      const found = await consumeToken(app.db, request.params.token, 'email_verify');
      if (found) {
        const verified = await app.db
          .update(users)
          .set({ emailVerifiedAt: new Date() })
          .where(and(eq(users.id, found.user.id), isNull(users.emailVerifiedAt)))
          .returning({ id: users.id });
        return reply.redirect(verified.length ? '/email/verify-success/' : '/email/already-verified/');
      }
      const [used] = await app.db
        .select({ verifiedAt: users.emailVerifiedAt })
        .from(tokens)
        .innerJoin(users, eq(users.id, tokens.userId))
        .where(and(eq(tokens.tokenHash, hashToken(request.params.token)), eq(tokens.purpose, 'email_verify')));
      if (used?.verifiedAt) return reply.redirect('/email/already-verified/');
      return reply.redirect('/email/link-invalid');
    },
  );
}) satisfies FastifyPluginAsync;
