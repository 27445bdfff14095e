/**
 * The privacy policy leads to "Datele tale" (issue 32): its footer links the app's page, and its
 * "Drepturile tale" section says what the page does, with a link to it.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { legalPageHtml, renderLegalMarkdown } from '../../server/lib/legal-pages';
import { STATIC_ROUTES } from '../../src/core/routes';

const SHELL = {
  title: 'Politica de confidențialitate',
  product: 'Ghișeu',
  logoUrl: '/logo.svg',
  contactEmail: 'contact@ghiseu.ro',
  contactPhone: null,
  termsUrl: 'https://legal.example/termeni',
  privacyUrl: 'https://legal.example/gdpr',
};

describe('the privacy page and "Datele tale"', () => {
  it('the footer of the legal pages links /contul-meu/date (this server, wherever the legal texts live)', () => {
    const html = legalPageHtml(SHELL, '<h1>T</h1>', 'n0nce');
    const footer = html.slice(html.indexOf('<footer>'));
    expect(footer).toContain(`<a href="${STATIC_ROUTES['my-data']}">Datele tale</a>`);
    expect(STATIC_ROUTES['my-data']).toBe('/contul-meu/date');
  });

  it('"Drepturile tale" of content/legal/confidentialitate.md links the page', () => {
    const markdown = readFileSync(new URL('../../content/legal/confidentialitate.md', import.meta.url), 'utf8');
    const rights = markdown.slice(markdown.indexOf('## Drepturile tale'));
    expect(rights).not.toBe(markdown);
    // `{{my_data_url}}`: the page's address, filled in by server/routes/legal.ts from the named route.
    const html = renderLegalMarkdown(rights, { product: 'Ghișeu', contact_email: 'contact@ghiseu.ro', my_data_url: STATIC_ROUTES['my-data'] });
    expect(html).toContain('<a href="/contul-meu/date">Datele tale</a>');
  });
});
