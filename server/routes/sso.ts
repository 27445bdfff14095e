import type { FastifyPluginAsync } from 'fastify';
import { findToken } from '../lib/tokens';
import { escapeHtml } from '../mail/templates';
import { styleNonce } from '../plugins/security-headers';
import { otherReplies } from '../lib/api-schemas';

/**
 * The built-in stand-in for the dashboard application: `/sso/:token` proves the hand-over by
 * showing which user arrived, in the page's main landmark. Registered only while DASHBOARD_URL
 * points at this server.
 */
export default (async (app) => {
  if (new URL(app.config.dashboardUrl).origin !== new URL(app.config.publicUrl).origin) return;

  app.get<{ Params: { token: string } }>('/sso/:token', { schema: { response: otherReplies('The built-in hand-over page', 'text/html') } }, async (request, reply) => {
    const found = await findToken(app.db, request.params.token, 'access');
    const body = found
      ? `<h1>Bun venit în contul tău ${escapeHtml(app.config.productName)}</h1>
<p data-testid="sso-user">Autentificat ca <strong>${escapeHtml(found.user.email)}</strong>.</p>
<p>Aici continuă aplicația de contabilitate (dashboard).</p>`
      : `<h1>Sesiune invalidă</h1><p>Linkul de autentificare nu mai este valid. <a href="/login">Autentifică-te din nou</a>.</p>`;
    return reply
      .code(found ? 200 : 401)
      .type('text/html; charset=utf-8')
      .send(`<!doctype html><html lang="ro"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Dashboard ${escapeHtml(app.config.productName)}</title>
<style nonce="${styleNonce(reply)}">body{font-family:sans-serif;max-width:640px;margin:auto;padding:16px}</style></head><body><main>${body}</main></body></html>`);
  });
}) satisfies FastifyPluginAsync;
