import type { FastifyPluginAsync } from 'fastify';
import { readOutbox } from '../mail/mailer';
import { escapeHtml } from '../mail/templates';
import { onlyFromLoopback } from '../lib/loopback';
import { styleNonce } from '../plugins/security-headers';
import { arrayOf, int, obj, otherReplies, replies, str } from '../lib/api-schemas';

/** `OutboxMail` in src/core/api-types.ts. */
const outboxMail = obj({ id: int, to: str, subject: str, text: str, html: str, links: arrayOf(str), created_at: str });

/**
 * The mail outbox for local use and tests: registered only in development while mails stay in the
 * database (no SMTP_URL), and answering only clients on this machine (it holds every user's reset
 * and verification links). With SMTP configured or in production these routes do not exist.
 */
export default (async (app) => {
  if (app.mailer.kind !== 'outbox' || app.config.production) return;
  app.addHook('preHandler', onlyFromLoopback);

  app.get<{ Querystring: { to?: string } }>(
    '/api/dev/outbox',
    { schema: { querystring: { type: 'object', properties: { to: { type: 'string', maxLength: 254 } } }, response: replies(arrayOf(outboxMail), 'The mails kept instead of sent, newest first') } },
    async (request) => ({ message: '', payload: await readOutbox(app.db, { to: request.query.to }) }),
  );

  app.get('/dev/outbox', { schema: { hide: true, response: otherReplies('The outbox page', 'text/html') } }, async (_request, reply) => {
    const mails = await readOutbox(app.db);
    const items = mails
      .map(
        (m) => `<article><h2>${escapeHtml(m.subject)}</h2>
<p><strong>Către:</strong> ${escapeHtml(m.to)} · ${escapeHtml(new Date(m.created_at).toLocaleString('ro-RO'))}</p>
<pre>${escapeHtml(m.text)}</pre>
<ul>${m.links.map((l) => `<li><a href="${escapeHtml(l)}">${escapeHtml(l)}</a></li>`).join('')}</ul></article>`,
      )
      .join('<hr>');
    return reply.type('text/html; charset=utf-8').send(`<!doctype html><html lang="ro"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1"><title>Outbox</title>
<style nonce="${styleNonce(reply)}">body{font-family:sans-serif;max-width:800px;margin:auto;padding:16px}pre{white-space:pre-wrap}</style></head>
<body><h1>Outbox (${mails.length})</h1>
<p>Mailurile trimise de aplicație cât timp nu este configurat SMTP (cele mai noi primele).</p>
${items || '<p>Niciun mail.</p>'}</body></html>`);
  });
}) satisfies FastifyPluginAsync;
