import { Marked, type Tokens } from 'marked';
import { STATIC_ROUTES } from '../../src/core/routes';
import { escapeHtml } from '../mail/templates';

/**
 * The terms and privacy pages (issue 17): Markdown that staff edit (content/legal/*.md) rendered
 * to HTML once at start. Staff-written, but the page runs under the strict CSP and carries no
 * script or raw HTML: HTML blocks and inline tags are shown as text, links keep only http(s),
 * mailto, tel and same-site addresses, images become their alt text.
 */
const SAFE_HREF = /^(https?:\/\/|mailto:|tel:|\/(?!\/)|#)/i;

const markdown = new Marked({
  gfm: true,
  renderer: {
    html({ text }: Tokens.HTML | Tokens.Tag) {
      return escapeHtml(text);
    },
    link({ href, title, tokens }: Tokens.Link) {
      const label = this.parser.parseInline(tokens);
      if (!SAFE_HREF.test(href.trim())) return label;
      const titled = title ? ` title="${escapeHtml(title)}"` : '';
      return `<a href="${escapeHtml(href.trim())}"${titled}>${label}</a>`;
    },
    image({ text }: Tokens.Image) {
      return escapeHtml(text);
    },
  },
});

/** The page's Markdown with `{{product}}`, `{{contact_email}}` filled in, as safe HTML. */
export function renderLegalMarkdown(source: string, values: Record<string, string>): string {
  const filled = source.replace(/\{\{(\w+)\}\}/g, (whole, name: string) => values[name] ?? whole);
  return markdown.parse(filled, { async: false });
}

export interface LegalPageShell {
  title: string;
  product: string;
  logoUrl: string;
  contactEmail: string;
  contactPhone: string | null;
  termsUrl: string;
  privacyUrl: string;
}

const CSS = `body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;line-height:1.6;color:#1a202c;background:#f7fafc}
header,main,footer{max-width:760px;margin:0 auto;padding:16px}
header a{display:inline-flex;align-items:center;gap:10px;color:#1a6285;font-weight:600;font-size:1.15rem;text-decoration:none}
main{background:#fff;border-radius:12px;padding:24px}
main a,footer a{color:#14506d}
h1{font-size:1.75rem;line-height:1.25}h2{font-size:1.3rem;margin-top:2rem}h3{font-size:1.1rem}
footer{font-size:.9rem;color:#4a5568}footer nav{display:flex;flex-wrap:wrap;gap:16px}`;

/**
 * The whole document: the brand's header, the rendered Markdown, the footer (contact, terms, privacy,
 * and the applicant's "Datele tale" page of the app, issue 32).
 */
export function legalPageHtml(shell: LegalPageShell, body: string, nonce: string): string {
  const e = escapeHtml;
  const phone = shell.contactPhone ? ` · <a href="tel:${e(shell.contactPhone.replace(/[^+0-9]/g, ''))}">${e(shell.contactPhone)}</a>` : '';
  return `<!doctype html><html lang="ro"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${e(shell.title)} – ${e(shell.product)}</title><link rel="icon" href="/favicon.svg" type="image/svg+xml">
<style nonce="${nonce}">${CSS}</style></head><body>
<header><a href="/"><img src="${e(shell.logoUrl)}" alt="" width="36" height="36">${e(shell.product)}</a></header>
<main id="main">${body}</main>
<footer><p>Contact: <a href="mailto:${e(shell.contactEmail)}">${e(shell.contactEmail)}</a>${phone}</p>
<nav aria-label="Informații legale"><a href="${e(shell.termsUrl)}">Termeni și condiții</a><a href="${e(shell.privacyUrl)}">Politica de confidențialitate</a><a href="${STATIC_ROUTES['my-data']}">Datele tale</a></nav>
<p>© ${new Date().getFullYear()} ${e(shell.product)}</p></footer>
</body></html>`;
}
