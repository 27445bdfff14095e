/**
 * The terms and privacy pages (issue 17): content/legal/*.md rendered by the server under the
 * strict CSP, with the brand's header and footer; staff Markdown never becomes a script.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { renderLegalMarkdown } from '../../server/lib/legal-pages';
import { testApp } from './helpers';

let app: FastifyInstance;
beforeAll(async () => {
  app = await testApp({ contactPhone: '+40 21 123 4567' });
});
afterAll(() => app.close());

describe('GET /termeni and /confidentialitate', () => {
  it('are real pages: the Markdown as HTML, the brand, the contact and both links', async () => {
    const terms = await app.inject({ method: 'GET', url: '/termeni' });
    expect(terms.statusCode).toBe(200);
    expect(terms.headers['content-type']).toMatch(/^text\/html/);
    expect(terms.body).toContain('<h1>Termeni și condiții</h1>');
    // The articles the signature consent cites.
    expect(terms.body).toContain('2.10.3.');
    expect(terms.body).toContain('2.10.4.');
    expect(terms.body).toContain('<img src="/logo.svg" alt=""');
    expect(terms.body).toContain('href="mailto:contact@ghiseu.ro"');
    expect(terms.body).toContain('href="tel:+40211234567"');
    expect(terms.body).toContain('<a href="/confidentialitate">Politica de confidențialitate</a>');
    // {{product}} is filled in.
    expect(terms.body).not.toContain('{{');
    expect(terms.body).toContain('Ghișeu');

    const privacy = await app.inject({ method: 'GET', url: '/confidentialitate' });
    expect(privacy.statusCode).toBe(200);
    expect(privacy.body).toContain('<h1>Politica de confidențialitate</h1>');
    expect(privacy.body).toContain('<a href="/termeni">Termeni și condiții</a>');
  });

  it('the privacy page states this instance\'s retention periods and processors, from the configuration (issue 32)', async () => {
    const dev = await app.inject({ method: 'GET', url: '/confidentialitate' });
    expect(dev.body).not.toContain('{{');
    expect(dev.body).toContain(`${app.config.retention.unfinishedDays} de zile`);
    expect(dev.body).toContain(`${app.config.retention.accountingYears} ani`);
    expect(dev.body).toContain('href="/contul-meu/date"');
    expect(dev.body).toContain('simulatorul de verificare');
    const configured = await testApp({
      retention: { ...app.config.retention, unfinishedDays: 91, idMediaDays: 12 },
      veriffApiKey: 'k',
      veriffSharedSecret: 's',
      smtpUrl: 'smtp://mail.ghiseu.example:587',
      s3: { bucket: 'ghiseu-files', endpoint: null, region: 'eu-central-1', accessKeyId: 'a', secretAccessKey: 'b', forcePathStyle: false },
    });
    try {
      const body = (await configured.inject({ method: 'GET', url: '/confidentialitate' })).body;
      expect(body).toContain('91 de zile');
      expect(body).toContain('12 de zile');
      expect(body).toContain('Veriff OÜ');
      expect(body).toContain('serverul de e-mail mail.ghiseu.example');
      expect(body).toContain('Amazon S3 (regiunea eu-central-1)');
      expect(body).not.toContain('simulatorul de verificare');
    } finally {
      await configured.close();
    }
  });

  it('carry the strict CSP: the page style has the nonce, no inline script', async () => {
    const res = await app.inject({ method: 'GET', url: '/termeni' });
    const csp = String(res.headers['content-security-policy']);
    const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
    expect(nonce).toBeTruthy();
    expect(res.body).toContain(`<style nonce="${nonce}">`);
    expect(csp).not.toContain('unsafe-inline');
    expect(res.body).not.toMatch(/<script/i);
  });

  it('link to TERMS_URL / PRIVACY_URL when they point elsewhere', async () => {
    const other = await testApp({ termsUrl: 'https://legal.example/termeni', privacyUrl: 'https://legal.example/gdpr' });
    try {
      const res = await other.inject({ method: 'GET', url: '/confidentialitate' });
      expect(res.body).toContain('href="https://legal.example/termeni"');
      expect(res.body).toContain('href="https://legal.example/gdpr"');
    } finally {
      await other.close();
    }
  });
});

describe('renderLegalMarkdown', () => {
  it('shows raw HTML as text and drops unsafe links and images', () => {
    const html = renderLegalMarkdown(
      '# T\n\n<script>alert(1)</script>\n\nText <img src=x onerror=alert(1)> și [rău](javascript:alert(1)), [bun](https://ok.example), ![poza](https://x.example/p.png)',
      {},
    );
    expect(html).not.toMatch(/<script|<img|javascript:/i);
    expect(html).toContain('&lt;script&gt;');
    expect(html).toContain('rău');
    expect(html).toContain('<a href="https://ok.example">bun</a>');
    expect(html).toContain('poza');
  });

  it('fills in the known placeholders and leaves the others', () => {
    expect(renderLegalMarkdown('{{product}} și {{altceva}}', { product: 'Ghișeu' })).toBe('<p>Ghișeu și {{altceva}}</p>\n');
  });
});
