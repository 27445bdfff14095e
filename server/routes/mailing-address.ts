import type { FastifyPluginAsync } from 'fastify';
import { eq } from 'drizzle-orm';
import { counties } from '../db/schema';
import { FieldValidationError, forbidden } from '../lib/http-errors';
import type { UserRow } from '../lib/tokens';
import { loadRequest } from '../registration/serialize';
import { dbId } from '../lib/input-limits';
import {
  branchOfficesIn,
  MESSAGES,
  mailingAddressBodySchema,
  saveMailingAddress,
  validateMailingAddress,
  type MailingAddressBody,
} from '../registration/mailing';
import { arrayOf, int, obj, replies, requestReplies, str } from '../lib/api-schemas';

const branchOffice = obj({ id: int, county_id: int, name: str, address: str, name_formatted: str });

/**
 * The correspondence address (spec 001 §2 item 6, §7 `POST /api/mailing-address`) and the credit
 * partner's branch offices (`GET /api/nomenclature/icredit-office/index?county_id`).
 */
export default (async (app) => {
  /**
   * Saves the user's correspondence address (one per user, replaced on every save) and answers
   * with the user's request, whose `mailing_address` holds it. Choosing it is the step's submit.
   */
  app.post<{ Body: MailingAddressBody }>(
    '/mailing-address',
    { onRequest: app.authenticate, schema: { body: mailingAddressBodySchema, response: requestReplies } },
    async (request) => {
      const user = request.user as UserRow;
      const flow = app.flows.byType[user.registrationType as 1 | 2];
      if (!flow) throw forbidden();
      const { serialize } = await loadRequest(app, user, flow);
      const values = await validateMailingAddress(app.db, request.body);
      await saveMailingAddress(app.db, user.id, values);
      return { message: MESSAGES.saved, payload: await serialize() };
    },
  );

  /** Public like the other nomenclatures: the active branch offices of a county, in order. */
  app.get<{ Querystring: { county_id?: number } }>(
    '/nomenclature/icredit-office/index',
    { schema: { querystring: { type: 'object', properties: { county_id: dbId } }, response: replies(obj({ data: arrayOf(branchOffice) }), 'The active branch offices of the county') } },
    async (request) => {
      const countyId = request.query.county_id;
      if (!countyId) throw new FieldValidationError({ county_id: [MESSAGES.chooseCounty] });
      const [county] = await app.db.select({ id: counties.id }).from(counties).where(eq(counties.id, countyId));
      if (!county) throw new FieldValidationError({ county_id: ['Județul ales nu există.'] });
      return { message: '', payload: { data: await branchOfficesIn(app.db, countyId) } };
    },
  );
}) satisfies FastifyPluginAsync;
