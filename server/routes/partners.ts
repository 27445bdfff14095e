import type { FastifyPluginAsync } from 'fastify';
import { asc, eq, inArray } from 'drizzle-orm';
import { partnerPrices, partners } from '../db/schema';
import { arrayOf, bool, int, nullable, nullInt, nullStr, num, obj, replies, str } from '../lib/api-schemas';
import { priceTerms } from '../payment/billing';

/** A plan's price as the register page shows it (`PlanPrice` in src/core/api-types.ts): lei, and its introductory phase or nulls. */
const PLAN_PRICE = obj({ stripe_id: str, description: str, amount: num, currency: str, interval: str, intro_months: nullInt, then_amount: nullable(num) });

/** The active subscription types (`Partner`), each with its prices and footnote. */
const PARTNER_LIST = arrayOf(obj({ id: int, name: str, slug: str, is_unaffiliated: bool, footnote: nullStr, prices: arrayOf(PLAN_PRICE) }));

export default (async (app) => {
  /**
   * Active partners (subscription types) for the register form, each with its prices and footnote
   * (issue 17 item 5: the plan's price before the account exists); the browser preselects
   * `selected_partner` by slug.
   */
  app.get<{ Querystring: { selected_partner?: string } }>(
    '/partner/index',
    {
      schema: {
        querystring: { type: 'object', properties: { selected_partner: { type: 'string', maxLength: 100 } } },
        response: replies(PARTNER_LIST, 'The active partners (Partner) with their prices and footnote'),
      },
    },
    async () => {
      const rows = await app.db
        .select({ id: partners.id, name: partners.name, slug: partners.slug, is_unaffiliated: partners.isUnaffiliated, footnote: partners.footnote })
        .from(partners)
        .where(eq(partners.isActive, true))
        .orderBy(asc(partners.sortOrder), asc(partners.id));
      const prices = rows.length
        ? await app.db
            .select()
            .from(partnerPrices)
            .where(
              inArray(
                partnerPrices.partnerId,
                rows.map((r) => r.id),
              ),
            )
            .orderBy(asc(partnerPrices.sortOrder), asc(partnerPrices.id))
        : [];
      const payload = rows.map((row) => ({
        ...row,
        prices: prices
          .filter((p) => p.partnerId === row.id)
          .map((p) => ({ stripe_id: p.stripePriceId, description: p.description, ...priceTerms(p) })),
      }));
      return { message: '', payload };
    },
  );
}) satisfies FastifyPluginAsync;
