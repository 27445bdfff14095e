import type { FastifyInstance } from 'fastify';
import { and, eq } from 'drizzle-orm';
import { registrationRequests, users } from '../../server/db/schema';
import { onlyFromLoopback } from '../../server/lib/loopback';
import { NO_PAYLOAD, replies } from '../../server/lib/api-schemas';

/**
 * Test-only routes of the e2e server (registered by tests/e2e/serve.ts, never by server/app.ts):
 * `POST /__test/place-at-step` puts the signed-in user's request at a step, for walking past the
 * steps whose screens belong to later issues; `POST /__test/user-flags` sets the signed-in user's
 * dashboard_redirect, which only the back office (not this app) turns on. The Playwright process
 * cannot write the embedded database itself (PGlite lives inside the server process).
 */
export async function registerTestRoutes(app: FastifyInstance): Promise<void> {
  // Like every development-only route: only for clients on this machine.
  app.addHook('onRequest', async (request, reply) => {
    if (request.url.startsWith('/__test/')) await onlyFromLoopback(request, reply);
  });
  app.post<{ Body: { step: string; form_data?: Record<string, unknown>; profile?: Record<string, unknown> } }>(
    '/__test/place-at-step',
    {
      preHandler: app.authenticate,
      schema: {
        body: {
          type: 'object',
          required: ['step'],
          properties: { step: { type: 'string', minLength: 1 }, form_data: { type: 'object' }, profile: { type: 'object' } },
        },
        response: replies(NO_PAYLOAD),
      },
    },
    async (request) => {
      const user = request.user!;
      const where = and(eq(registrationRequests.userId, user.id), eq(registrationRequests.registrationType, user.registrationType));
      const [row] = await app.db.select().from(registrationRequests).where(where);
      if (!row) throw new Error('open the request first');
      await app.db
        .update(registrationRequests)
        .set({
          step: request.body.step,
          formData: { ...row.formData, ...(request.body.form_data ?? {}) },
          // The identity decision's data (names, CNP), for steps after it.
          ...(request.body.profile ? { profile: { ...row.profile, ...request.body.profile } } : {}),
          version: row.version + 1,
        })
        .where(where);
      return { message: '', payload: null };
    },
  );

  app.post<{ Body: { dashboard_redirect: boolean } }>(
    '/__test/user-flags',
    {
      preHandler: app.authenticate,
      schema: {
        body: { type: 'object', required: ['dashboard_redirect'], properties: { dashboard_redirect: { type: 'boolean' } } },
        response: replies(NO_PAYLOAD),
      },
    },
    async (request) => {
      await app.db.update(users).set({ dashboardRedirect: request.body.dashboard_redirect }).where(eq(users.id, request.user!.id));
      return { message: '', payload: null };
    },
  );
}
