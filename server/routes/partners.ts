import type { FastifyPluginAsync } from 'fastify';
import { asc, eq } from 'drizzle-orm';
import { partners } from '../db/schema';
import { arrayOf, bool, int, obj, replies, str } from '../lib/api-schemas';

export default (async (app) => {
  /** Active partners (subscription types) for the register form; the browser preselects `selected_partner` by slug. */
  app.get<{ Querystring: { selected_partner?: string } }>(
    '/partner/index',
    {
      schema: {
        querystring: { type: 'object', properties: { selected_partner: { type: 'string', maxLength: 100 } } },
        response: replies(arrayOf(obj({ id: int, name: str, slug: str, is_unaffiliated: bool })), 'The active partners (Partner)'),
      },
    },
    async () => {
      const rows = await app.db
        .select({ id: partners.id, name: partners.name, slug: partners.slug, is_unaffiliated: partners.isUnaffiliated })
        .from(partners)
        .where(eq(partners.isActive, true))
        .orderBy(asc(partners.sortOrder), asc(partners.id));
      return { message: '', payload: rows };
    },
  );
}) satisfies FastifyPluginAsync;
