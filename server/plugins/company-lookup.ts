import fp from 'fastify-plugin';
import { createCompanyLookup } from '../company/service';
import type { CompanyLookup } from '../company/types';

declare module 'fastify' {
  interface FastifyInstance {
    /** Company lookup by fiscal code ("Am PFA" step 2): ANAF when `COMPANY_LOOKUP=anaf`, else the local registry. */
    companies: CompanyLookup;
  }
}

/** Company lookup by fiscal code: ANAF's web service or the seeded local registry. */
export default fp<{ companies?: CompanyLookup }>(
  async (app, options) => {
    app.decorate('companies', options.companies ?? createCompanyLookup(app.config, app.db, app.redis && { redis: app.redis, prefix: `${app.redisPrefix}anaf:` }));
  },
  { name: 'company-lookup', dependencies: ['config', 'database', 'redis'], fastify: '5.x' },
);
