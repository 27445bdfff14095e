import type { FastifyPluginAsync } from 'fastify';
import { eq } from 'drizzle-orm';
import { lostReasons } from '../db/schema';
import { FieldValidationError } from '../lib/http-errors';
import type { UserRow } from '../lib/tokens';
import type { FlowRegistry } from '../flows/registry';
import { staleStep } from '../registration/model';
import { loadRequest } from '../registration/serialize';
import { markLost, markUnlost } from '../registration/store';
import type { RegistrationTypeValue } from '../../src/core/registration';
import type { Flow } from '../../src/core/flow';
import { obj, replies, requestReplies } from '../lib/api-schemas';

/**
 * Leaving the flow and coming back (spec 001 §4 Questionnaire, Office type): mark-as-lost keeps
 * the reason and sets the user's stop_flow; mark-as-unlost clears both and answers the
 * registration type so the browser returns to the right flow.
 */
/** The `exclusive` answers of the flow's questionnaire steps (their rule is `questionnaire`), in the base flow and every variant. */
function exclusiveAnswers(flow: Flow): Set<string> {
  const answers = new Set<string>();
  const steps = [...flow.steps, ...(flow.variants ?? []).flatMap((v) => Object.values(v.steps))];
  for (const step of steps) {
    const options = (step?.uiSchema?.reasons as Record<string, unknown> | undefined)?.['ui:options'] as Record<string, unknown> | undefined;
    if (typeof options?.exclusive === 'string') answers.add(options.exclusive);
  }
  return answers;
}

export default (async (app, options: { registry: FlowRegistry }) => {
  const flowOf = (user: UserRow) => options.registry.byType[user.registrationType as RegistrationTypeValue];

  app.post<{ Body: { reason_identifier: string } }>(
    '/mark-as-lost',
    {
      onRequest: app.authenticate,
      schema: {
        body: {
          type: 'object',
          required: ['reason_identifier'],
          properties: { reason_identifier: { type: 'string', minLength: 1, maxLength: 60 } },
        },
        response: requestReplies,
      },
    },
    async (request) => {
      const user = request.user as UserRow;
      const [reason] = await app.db.select().from(lostReasons).where(eq(lostReasons.identifier, request.body.reason_identifier));
      const flow = flowOf(user);
      // The questionnaire's exclusive answer ("Niciuna dintre acestea") is the one reason that is not a reason to leave.
      if (!reason || exclusiveAnswers(flow).has(reason.identifier)) {
        throw new FieldValidationError({ reason_identifier: ['Motiv necunoscut.'] });
      }
      const { request: row, serialize } = await loadRequest(app, user, flow);
      const moved = await markLost(app.db, row, reason.identifier);
      if (!moved) throw staleStep(await serialize());
      return { message: '', payload: await serialize(moved) };
    },
  );

  app.post('/mark-as-unlost', { onRequest: app.authenticate, schema: { response: replies(obj({ registration_type: { type: 'integer', enum: [1, 2] } }), 'The flow to go back to') } }, async (request) => {
    const user = request.user as UserRow;
    const { request: row, serialize } = await loadRequest(app, user, flowOf(user));
    const moved = await markUnlost(app.db, row);
    if (!moved) throw staleStep(await serialize());
    return { message: '', payload: { registration_type: user.registrationType } };
  });
}) satisfies FastifyPluginAsync<{ registry: FlowRegistry }>;
