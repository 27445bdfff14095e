import type { FastifyPluginAsync } from 'fastify';
import type { PublicConfig } from '../../src/core/api-types';
import { nullStr, obj, replies, str } from '../lib/api-schemas';

const publicConfig = obj({
  product_name: str,
  product_slug: str,
  dashboard_url: str,
  support_widget_url: nullStr,
  site_url: str,
  contact_email: str,
  contact_phone: nullStr,
  logo_url: str,
  terms_url: str,
  privacy_url: str,
});

export default (async (app) => {
  app.get('/health', { schema: { response: replies(obj({ status: str, database: str }), 'The app answers; `database`: which database it runs on') } }, async () => ({ message: 'ok', payload: { status: 'ok', database: app.database.kind } }));

  /** Non-secret settings the browser needs at run time. */
  app.get('/config', { schema: { response: replies(publicConfig, 'Public settings of the browser (PublicConfig)') } }, async (): Promise<{ message: string; payload: PublicConfig }> => ({
    message: '',
    payload: {
      product_name: app.config.productName,
      product_slug: app.config.productSlug,
      dashboard_url: app.config.dashboardUrl,
      support_widget_url: app.config.supportWidgetUrl,
      site_url: app.config.siteUrl,
      contact_email: app.config.contactEmail,
      contact_phone: app.config.contactPhone,
      logo_url: app.config.logoUrl,
      terms_url: app.config.termsUrl,
      privacy_url: app.config.privacyUrl,
    },
  }));
}) satisfies FastifyPluginAsync;
