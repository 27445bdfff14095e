import type { FastifyPluginAsync } from 'fastify';
import { AUTO_LOGIN_LINK_TTL_SECONDS, DASHBOARD_REDIRECT_COOKIE_SECONDS } from '../../src/core/registration';
import { isKnownRouteName } from '../../src/core/routes';
import { FieldValidationError } from '../lib/http-errors';
import { browserOrigin } from '../lib/origin';
import { issueToken, type UserRow } from '../lib/tokens';
import { onboardingState, saveUserLanguage } from '../lib/users';
import { LANGUAGES, messages, type Language } from '../messages';
import { bool, nullStr, obj, replies, str } from '../lib/api-schemas';

export default (async (app) => {
  /**
   * Whether the browser should leave for the dashboard (spec 000 §4.5). When not, the cookie
   * `dashboard_redirect=0` spares the browser the question for 5 minutes.
   */
  app.get('/user/dashboard-redirect', { onRequest: app.authenticate, schema: { response: replies(bool, 'Whether to leave for the dashboard') } }, async (request, reply) => {
    // Follows the requests' state: a finalized dossier hands the user over to the dashboard.
    const redirect = (await onboardingState(app.db, request.user as UserRow)).dashboardRedirect;
    if (!redirect) {
      reply.setCookie('dashboard_redirect', '0', { path: '/', maxAge: DASHBOARD_REDIRECT_COOKIE_SECONDS, sameSite: 'lax' });
    }
    return { message: '', payload: redirect };
  });

  /**
   * The applicant's language (issue 18), chosen with the switch of the app's header: kept in
   * user_meta so the mails sent later (the payment's receipt) speak it.
   */
  app.put<{ Body: { language: Language } }>(
    '/user/language',
    {
      onRequest: app.authenticate,
      schema: {
        body: { type: 'object', required: ['language'], additionalProperties: false, properties: { language: { type: 'string', enum: [...LANGUAGES] } } },
        response: replies(obj({ language: { type: 'string', enum: [...LANGUAGES] } }), 'The language kept for the user'),
      },
    },
    async (request) => {
      const { language } = request.body;
      await saveUserLanguage(app.db, request.user!.id, language);
      return { message: messages(language).languageSaved, payload: { language } };
    },
  );

  /** A single-use link that signs the same user in on another device (the identity step's QR code). */
  app.get<{ Querystring: { redirect?: string } }>(
    '/user/auto-login-link',
    {
      onRequest: app.authenticate,
      schema: {
        querystring: { type: 'object', properties: { redirect: { type: 'string', maxLength: 100 } } },
        response: replies(obj({ auto_login_link: str, expires_at: nullStr }), 'A single-use sign-in link'),
      },
    },
    async (request) => {
      const redirect = request.query.redirect ?? null;
      if (redirect && !isKnownRouteName(redirect, app.flows.flows)) {
        throw new FieldValidationError({ redirect: ['Pagina cerută nu există.'] });
      }
      const user = request.user!;
      const { secret, expiresAt } = await issueToken(app.db, user.id, 'auto_login', {
        ttlSeconds: AUTO_LOGIN_LINK_TTL_SECONDS,
        redirect,
      });
      const link = new URL('/auto-login', browserOrigin(app, request));
      link.searchParams.set('token', secret);
      if (redirect) link.searchParams.set('redirect', redirect);
      return { message: '', payload: { auto_login_link: link.toString(), expires_at: expiresAt?.toISOString() } };
    },
  );
}) satisfies FastifyPluginAsync;
