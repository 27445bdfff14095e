import type { FastifyPluginAsync } from 'fastify';
import { and, arrayContains, asc, count, desc, eq, ilike, sql, type SQL } from 'drizzle-orm';
import { searchKey } from '../../src/core/counties';
import { activities, cities, counties, lostReasons, maritalStatuses } from '../db/schema';
import { FieldValidationError } from '../lib/http-errors';
import { dbId, dbOffset } from '../lib/input-limits';
import { arrayOf, bool, int, nullStr, obj, page, replies, str } from '../lib/api-schemas';
import { escapeLike } from '../lib/like';

const county = obj({ id: int, name: str, code: str });
/**
 * `name`: how the locality is written in an address ("Rogoz, comuna Albac"); `kind`: municipiu, oras,
 * comuna, sat, sector; `postal_code`: SIRUTA's, when the locality has its own.
 */
const city = obj({ id: int, name: str, county_id: int, kind: str, postal_code: nullStr });
const activity = obj({ id: int, code: str, name: str, is_primary: bool, is_active: bool });
const maritalStatus = obj({ id: int, code: str, display_name: str, display_description: str, is_default: bool });
const lostReason = obj({ identifier: str, fe_text: str, fe_subtext: nullStr });

const pageParams = {
  type: 'object',
  required: ['offset', 'limit'],
  properties: { offset: dbOffset, limit: { type: 'integer', minimum: 1, maximum: 100 } },
} as const;

/** `%term%` for LIKE, diacritics and case ignored. */
function likeTerm(term: string): string {
  return `%${escapeLike(searchKey(term))}%`;
}

export default (async (app) => {
  app.get<{ Params: { offset: number; limit: number }; Querystring: { search_term?: string } }>(
    '/nomenclature/county/index/:offset/:limit',
    { schema: { params: pageParams, querystring: { type: 'object', properties: { search_term: { type: 'string', maxLength: 100 } } }, response: replies(page(county), 'A page of counties') } },
    async (request) => {
      const { offset, limit } = request.params;
      const term = request.query.search_term?.trim();
      const all = await app.db.select({ id: counties.id, name: counties.name, code: counties.code }).from(counties);
      // 42 rows: filter and sort in memory with Romanian collation and diacritic-free matching.
      const matching = all
        .filter((c) => !term || searchKey(c.name).includes(searchKey(term)) || c.code.toLowerCase() === term.toLowerCase())
        .sort((a, b) => a.name.localeCompare(b.name, 'ro'));
      return { message: '', payload: { data: matching.slice(offset, offset + limit), total: matching.length } };
    },
  );

  app.get<{ Params: { offset: number; limit: number }; Querystring: { county_id?: number; search_term?: string } }>(
    '/nomenclature/city/index/:offset/:limit',
    {
      schema: {
        params: pageParams,
        querystring: {
          type: 'object',
          properties: { county_id: dbId, search_term: { type: 'string', maxLength: 100 } },
        },
        response: replies(page(city), 'A page of the county\'s cities'),
      },
    },
    async (request) => {
      const { offset, limit } = request.params;
      const { county_id: countyId, search_term: term } = request.query;
      if (!countyId) throw new FieldValidationError({ county_id: ['Alege mai întâi județul.'] });
      const [county] = await app.db.select({ id: counties.id }).from(counties).where(eq(counties.id, countyId));
      if (!county) throw new FieldValidationError({ county_id: ['Județul ales nu există.'] });
      const conditions: SQL[] = [eq(cities.countyId, countyId)];
      const key = term?.trim() ? searchKey(term) : '';
      // A village is found by its own name and by its commune's: the label holds both ("rogoz, comuna albac").
      if (key) conditions.push(ilike(cities.searchName, likeTerm(term!)));
      const where = and(...conditions);
      // Localities whose name starts with the search first; municipalities, then towns, sectors, communes and villages.
      const rank = sql`case ${cities.kind} when 'municipiu' then 0 when 'oras' then 1 when 'sector' then 2 when 'comuna' then 3 else 4 end`;
      const order = [rank, asc(cities.searchName), asc(cities.id)];
      if (key) order.unshift(desc(sql`${cities.searchName} like ${`${escapeLike(key)}%`}`));
      const [rows, [{ total }]] = await Promise.all([
        app.db
          .select({ id: cities.id, name: cities.label, county_id: cities.countyId, kind: cities.kind, postal_code: cities.postalCode })
          .from(cities)
          .where(where)
          .orderBy(...order)
          .limit(limit)
          .offset(offset),
        app.db.select({ total: count() }).from(cities).where(where),
      ]);
      return { message: '', payload: { data: rows, total } };
    },
  );

  /** Activities of the new-company wizard; primary ones first (the grid), then the rest. */
  app.get<{ Querystring: { is_active?: number } }>(
    '/nomenclature/activity/index',
    { schema: { querystring: { type: 'object', properties: { is_active: { type: 'integer', enum: [0, 1] } } }, response: replies(arrayOf(activity), 'Primary activities first') } },
    async (request) => {
      const rows = await app.db
        .select({ id: activities.id, code: activities.code, name: activities.name, is_primary: activities.isPrimary, is_active: activities.isActive })
        .from(activities)
        .where(request.query.is_active === undefined ? undefined : eq(activities.isActive, request.query.is_active === 1))
        .orderBy(asc(activities.sortOrder), asc(activities.id));
      return { message: '', payload: rows };
    },
  );

  app.get('/nomenclature/marital-status/index', { schema: { response: replies(obj({ data: arrayOf(maritalStatus) })) } }, async () => {
    const rows = await app.db
      .select({
        id: maritalStatuses.id,
        code: maritalStatuses.code,
        display_name: maritalStatuses.displayName,
        display_description: maritalStatuses.displayDescription,
        is_default: maritalStatuses.isDefault,
      })
      .from(maritalStatuses)
      .orderBy(asc(maritalStatuses.sortOrder));
    return { message: '', payload: { data: rows } };
  });

  /** The questionnaire's options for a registration type, "niciuna" last. */
  app.get<{ Querystring: { registration_type: number } }>(
    '/nomenclature/lost-reasons/index',
    {
      schema: {
        querystring: {
          type: 'object',
          required: ['registration_type'],
          properties: { registration_type: { type: 'integer', enum: [1, 2] } },
        },
        response: replies(arrayOf(lostReason), 'The questionnaire\'s options, in order'),
      },
    },
    async (request) => {
      const rows = await app.db
        .select({ identifier: lostReasons.identifier, fe_text: lostReasons.feText, fe_subtext: lostReasons.feSubtext })
        .from(lostReasons)
        .where(arrayContains(lostReasons.questionnaireTypes, [request.query.registration_type]))
        .orderBy(asc(lostReasons.sortOrder));
      return { message: '', payload: rows };
    },
  );
}) satisfies FastifyPluginAsync;
