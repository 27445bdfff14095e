import type { FastifyPluginAsync } from 'fastify';
import { eq } from 'drizzle-orm';
import { users } from '../db/schema';
import { notFound } from '../lib/http-errors';
import { NO_PAYLOAD, replies } from '../lib/api-schemas';
import { withdrawMarketing } from '../privacy/consents';

export default (async (app) => {
  /** From the link in every mail: stops notifications for the user behind `frontend_id`. */
  app.post<{ Body: { frontend_id: string } }>(
    '/unsubscribe',
    {
      schema: {
        body: {
          type: 'object',
          required: ['frontend_id'],
          properties: { frontend_id: { type: 'string', minLength: 1, maxLength: 100 } },
        },
        response: replies(NO_PAYLOAD),
      },
    },
    async (request) => {
      const now = new Date();
      const user = await app.db.transaction(async (tx) => {
        const [found] = await tx
          .update(users)
          .set({ unsubscribedAt: now })
          .where(eq(users.frontendId, request.body.frontend_id))
          .returning({ id: users.id });
        // The marketing consent is withdrawn with it (issue 32: the "Datele tale" page shows the state).
        if (found) await withdrawMarketing(tx, found.id, now);
        return found;
      });
      if (!user) throw notFound('Linkul de dezabonare nu este valid.');
      return { message: 'Nu vei mai primi notificări de la noi.', payload: null };
    },
  );
}) satisfies FastifyPluginAsync;
