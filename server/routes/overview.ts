import type { FastifyPluginAsync } from 'fastify';
import type { UserRow } from '../lib/tokens';
import { MESSAGES } from '../registration/overview';
import { OVERVIEW_FIELDS, overviewData, searchCaenCodes, updateOverview, type OverviewUpdate } from '../registration/overview-service';
import { dbId, dbOffset } from '../lib/input-limits';
import { arrayOf, bool, int, nullStr, obj, page, replies, requestWith, str } from '../lib/api-schemas';

/** `replaces`: the old CAEN Rev.2 codes (matching the search) this Rev.3 class replaces. */
const caenCode = obj({ id: int, code: str, name: str, replaces: arrayOf(str) });
/** The request's codes, primary first (spec 001 §3 "CAEN code"). */
const requestCodes = arrayOf(
  obj({
    id: int,
    code: str,
    name: str,
    is_primary: { type: 'integer', enum: [0, 1] },
    /** "CAEN Rev.3"; a code still in "CAEN Rev.2" is one that split: the applicant chooses among `replaced_by`. */
    revision: str,
    replaced_by: arrayOf(obj({ id: int, code: str, name: str })),
  }),
);
const overview = obj({
  company_name: nullStr,
  activity: nullStr,
  codes: requestCodes,
  email: str,
  phone: str,
  locked_codes: arrayOf(str),
  codes_by_operator: bool,
  editable: bool,
});

/**
 * The overview step's own calls (spec 001 §2 item 4, §5, §7): the CAEN search, the inline edits of
 * the profile and the codes (`update/form-data`), the data the step shows, and marking the request
 * submitted once `POST /api/registration/send` (the generic step route + `sendRule`) succeeded.
 * The work is in server/registration/overview-service.ts.
 */
const overviewRoutes: FastifyPluginAsync = async (app) => {
  app.get<{ Params: { offset: number; size: number }; Querystring: { search_term?: string } }>(
    '/nomenclature/code/index/:offset/:size',
    {
      schema: {
        params: {
          type: 'object',
          required: ['offset', 'size'],
          properties: { offset: dbOffset, size: { type: 'integer', minimum: 1, maximum: 100 } },
        },
        querystring: { type: 'object', properties: { search_term: { type: 'string', maxLength: 100 } } },
        response: replies(page(caenCode), 'A page of CAEN codes'),
      },
    },
    async (request) => ({ message: '', payload: await searchCaenCodes(app.db, request.query.search_term, request.params.offset, request.params.size) }),
  );

  /** What the overview shows besides the profile: PFA name, codes with their names, e-mail and phone (read-only). */
  app.get('/registration/overview', { onRequest: app.authenticate, schema: { response: replies(overview, 'What the overview step shows') } }, async (request) => ({
    message: '',
    payload: await overviewData(app, request.user as UserRow),
  }));

  app.post<{ Body: OverviewUpdate }>(
    '/registration/update/form-data',
    {
      onRequest: app.authenticate,
      schema: {
        body: {
          type: 'object',
          properties: {
            first_name: { type: 'string', maxLength: 100 },
            last_name: { type: 'string', maxLength: 100 },
            personal_code: { type: 'string', maxLength: 20 },
            codes: { type: 'array', maxItems: 20, items: dbId },
            field: { type: 'string', enum: [...OVERVIEW_FIELDS] },
            value: {},
          },
        },
        response: replies(requestWith({ codes: requestCodes }), 'The request, with its codes named'),
      },
    },
    async (request) => ({ message: MESSAGES.saved, payload: await updateOverview(app, request.user as UserRow, request.body ?? {}) }),
  );
};

export default overviewRoutes;
