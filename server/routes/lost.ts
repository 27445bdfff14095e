import type { FastifyPluginAsync } from 'fastify';
import { eq } from 'drizzle-orm';
import { lostReasons, users } from '../db/schema';
import { FieldValidationError } from '../lib/http-errors';
import type { UserRow } from '../lib/tokens';
import type { FlowRegistry } from '../flows/registry';
import { loadRequest, moveRequest, staleStep } from '../registration/requests';
import type { RegistrationTypeValue } from '../../src/core/registration';

/**
 * Leaving the flow and coming back (spec 001 §4 Questionnaire, Office type): mark-as-lost keeps
 * the reason and sets the user's stop_flow; mark-as-unlost clears both and answers the
 * registration type so the browser returns to the right flow.
 */
export default (async (app, options: { registry: FlowRegistry }) => {
  const flowOf = (user: UserRow) => options.registry.byType[user.registrationType as RegistrationTypeValue];

  app.post<{ Body: { reason_identifier: string } }>(
    '/mark-as-lost',
    {
      preHandler: app.authenticate,
      schema: {
        body: {
          type: 'object',
          required: ['reason_identifier'],
          properties: { reason_identifier: { type: 'string', minLength: 1, maxLength: 60 } },
        },
      },
    },
    async (request) => {
      const user = request.user as UserRow;
      const [reason] = await app.db.select().from(lostReasons).where(eq(lostReasons.identifier, request.body.reason_identifier));
      if (!reason || reason.identifier === 'niciuna') {
        throw new FieldValidationError({ reason_identifier: ['Motiv necunoscut.'] });
      }
      const { request: row, serialize } = await loadRequest(app, user, flowOf(user));
      const moved = await moveRequest(app.db, row, { step: row.step, status: 'lost', lostReason: reason.identifier });
      if (!moved) throw staleStep(await serialize());
      await app.db.update(users).set({ stopFlow: true }).where(eq(users.id, user.id));
      return { message: '', payload: await serialize(moved) };
    },
  );

  app.post('/mark-as-unlost', { preHandler: app.authenticate }, async (request) => {
    const user = request.user as UserRow;
    const { request: row, serialize } = await loadRequest(app, user, flowOf(user));
    if (row.status === 'lost') {
      const moved = await moveRequest(app.db, row, { step: row.step, status: 'in_progress', lostReason: null });
      if (!moved) throw staleStep(await serialize());
    }
    await app.db.update(users).set({ stopFlow: false }).where(eq(users.id, user.id));
    return { message: '', payload: { registration_type: user.registrationType } };
  });
}) satisfies FastifyPluginAsync<{ registry: FlowRegistry }>;
