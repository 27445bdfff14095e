import { createHash, randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { AppConfig } from '../config';

/**
 * Content-Security-Policy of every HTML answer: no inline or eval'd script (validators are
 * precompiled); the support widget's origin when one is configured. No inline styles either:
 * the browser app's page carries a fresh nonce that Chakra UI's emotion puts on the <style>
 * elements it adds (`appPageWithNonce`, src/app/style-nonce.ts); server-made pages use `styleNonce`.
 */
export function contentSecurityPolicy(config: AppConfig, nonce?: string, styleAttributeHashes: readonly string[] = []): string {
  const attributes = styleAttributeHashes.length ? ` 'unsafe-hashes' ${styleAttributeHashes.map((h) => `'sha256-${h}'`).join(' ')}` : '';
  const widget = config.supportWidgetUrl ? ` ${new URL(config.supportWidgetUrl).origin}` : '';
  return [
    "default-src 'self'",
    `script-src 'self'${widget}`,
    `style-src 'self'${nonce ? ` 'nonce-${nonce}'` : ''}${attributes}`,
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    `connect-src 'self'${widget}`,
    `frame-src 'self'${widget}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/**
 * Browser features: the camera for this origin only (the identity photos, spec 000 §5); everything
 * else the app does not use is denied to it and to any frame.
 */
export const PERMISSIONS_POLICY = [
  'camera=(self)',
  'microphone=()',
  'geolocation=()',
  'payment=()',
  'usb=()',
  'serial=()',
  'hid=()',
  'midi=()',
  'magnetometer=()',
  'gyroscope=()',
  'accelerometer=()',
  'display-capture=()',
  'screen-wake-lock=()',
  'xr-spatial-tracking=()',
  'browsing-topics=()',
].join(', ');

/** One year, the least browsers' preload lists accept. */
export const HSTS = 'max-age=31536000; includeSubDomains';

/**
 * Answers that must never be kept by a browser or a proxy: every `/api/` answer (sessions, tokens,
 * personal data; public lists too, for one rule that stays true) and the dashboard hand-over page
 * `/sso/:token`. A route that sets its own Cache-Control (files: `private, no-store`) keeps it.
 */
export function isUncacheable(url: string): boolean {
  return url.startsWith('/api/') || url.startsWith('/sso/');
}

/**
 * The security headers of every answer (docs/architecture.md "Headers, personal data, logs"). Hand-written rather than
 * @fastify/helmet: helmet has no Permissions-Policy, and the CSP belongs on HTML answers only.
 */
export function registerSecurityHeaders(app: FastifyInstance, config: AppConfig): void {
  const csp = contentSecurityPolicy(config);
  const https = new URL(config.publicUrl).protocol === 'https:';
  // One object of the fixed headers, set in one call; callback-style (no promise per answer).
  const fixed: Record<string, string> = {
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'strict-origin-when-cross-origin',
    'X-Frame-Options': 'DENY',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Permissions-Policy': PERMISSIONS_POLICY,
    ...(https ? { 'Strict-Transport-Security': HSTS } : {}),
  };
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.headers(fixed);
    if (isUncacheable(request.url) && !reply.hasHeader('cache-control')) reply.header('Cache-Control', 'no-store');
    if (String(reply.getHeader('content-type') ?? '').startsWith('text/html') && !reply.hasHeader('content-security-policy')) {
      reply.header('Content-Security-Policy', csp);
    }
    done(null, payload);
  });
}

/**
 * For a server-rendered page with its own `<style nonce="…">` block (the built-in /sso page, the
 * dev outbox): sets this answer's CSP with a fresh nonce and returns the nonce.
 */
export function styleNonce(reply: FastifyReply, styleAttributeHashes: readonly string[] = []): string {
  const nonce = randomBytes(18).toString('base64');
  reply.header('Content-Security-Policy', contentSecurityPolicy(reply.server.config, nonce, styleAttributeHashes));
  return nonce;
}

const ENTITIES: Record<string, string> = { '&amp;': '&', '&quot;': '"', '&#x27;': "'", '&#39;': "'", '&lt;': '<', '&gt;': '>' };
const styleAttributeHashCache = new Map<string, string[]>();

/**
 * The sha256 of each `style="…"` attribute in a prerendered page (Chakra's hidden radio inputs,
 * `position:relative` wrappers): a nonce cannot cover attributes, so the CSP allows exactly these
 * values through 'unsafe-hashes' until React takes over (it sets styles through the CSSOM, which
 * CSP allows). Computed once per page.
 */
export function styleAttributeHashes(html: string): string[] {
  let hashes = styleAttributeHashCache.get(html);
  if (!hashes) {
    const values = new Set([...html.matchAll(/\sstyle="([^"]*)"/g)].map((m) => m[1].replace(/&(?:amp|quot|#x27|#39|lt|gt);/g, (e) => ENTITIES[e])));
    hashes = [...values].map((value) => createHash('sha256').update(value).digest('base64'));
    styleAttributeHashCache.set(html, hashes);
  }
  return hashes;
}

/** Where the browser app reads the nonce of its styles (src/app/style-nonce.ts). */
export const NONCE_META = 'csp-nonce';

/**
 * The browser app's page (index.html, or a guest page's prerendered copy) with a fresh style nonce:
 * set in this answer's Content-Security-Policy, given to the app in a `<meta property="csp-nonce">`
 * (emotion puts it on the <style> elements it adds) and put on the <style> elements the page was
 * prerendered with; its style attributes are allowed by their hashes. The page is therefore made per
 * answer, never cached or served precompressed.
 */
export function appPageWithNonce(reply: FastifyReply, html: string): string {
  const nonce = styleNonce(reply, styleAttributeHashes(html));
  return html
    .replace(/<style(?=[\s>])/g, `<style nonce="${nonce}"`)
    .replace('</head>', `<meta property="${NONCE_META}" content="${nonce}">\n</head>`);
}
