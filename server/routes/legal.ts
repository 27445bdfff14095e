import { readFile } from 'node:fs/promises';
import type { FastifyPluginAsync } from 'fastify';
import { otherReplies } from '../lib/api-schemas';
import { legalPageHtml, renderLegalMarkdown } from '../lib/legal-pages';
import { styleNonce } from '../plugins/security-headers';
import { policyValues } from '../privacy/policy-values';
import { STATIC_ROUTES } from '../../src/core/routes';

/** The pages of content/legal (issue 17): path, file, title. TERMS_URL / PRIVACY_URL may point elsewhere; these stay. */
export const LEGAL_PAGES = [
  { path: '/termeni', file: 'termeni.md', title: 'Termeni și condiții' },
  { path: '/confidentialitate', file: 'confidentialitate.md', title: 'Politica de confidențialitate' },
] as const;

const CONTENT_DIR = new URL('../../content/legal/', import.meta.url);

/** `/termeni` and `/confidentialitate`: the staff-edited Markdown, read and rendered once at start. */
export default (async (app) => {
  const { config } = app;
  // The retention periods and processors come from the configuration (issue 32): the text says what this instance does.
  const values = { product: config.productName, contact_email: config.contactEmail, ...policyValues(config, STATIC_ROUTES['my-data']) };
  for (const page of LEGAL_PAGES) {
    const body = renderLegalMarkdown(await readFile(new URL(page.file, CONTENT_DIR), 'utf8'), values);
    const shell = {
      title: page.title,
      product: config.productName,
      logoUrl: config.logoUrl,
      contactEmail: config.contactEmail,
      contactPhone: config.contactPhone,
      termsUrl: config.termsUrl,
      privacyUrl: config.privacyUrl,
    };
    app.get(page.path, { schema: { response: otherReplies(page.title, 'text/html') } }, async (_request, reply) =>
      reply.type('text/html; charset=utf-8').header('Cache-Control', 'no-cache').send(legalPageHtml(shell, body, styleNonce(reply))),
    );
  }
}) satisfies FastifyPluginAsync;
