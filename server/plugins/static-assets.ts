import fs from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import fastifyCompress from '@fastify/compress';
import fastifyStatic from '@fastify/static';
import { appPageWithNonce } from './security-headers';

/** Answers smaller than this go uncompressed (the headers would outweigh the gain). */
export const COMPRESS_THRESHOLD = 1024;

/** Files of the build that have `.br`/`.gz` twins (scripts/vite-plugin-precompress.ts), so their answer varies by Accept-Encoding. */
const COMPRESSIBLE = /\.(?:m?js|css|html|svg|json|txt|xml|webmanifest)(?:\.br|\.gz)?$/;
const ONE_YEAR = 'public, max-age=31536000, immutable';

/** A path the app's pages answer (not the API, not a built file), safe as a Location: no `//` or `\\` that a browser reads as another host. */
export function isPagePath(url: string): boolean {
  return /^\/(?![/\\])[^\\]*$/.test(url) && !url.startsWith('/api/') && !url.startsWith('/assets/');
}

/** The encoding a request accepts, brotli first, by its Accept-Encoding (`q=0` refuses one). */
export function preferredEncoding(acceptEncoding: string | undefined): 'br' | 'gzip' | null {
  const accepted = new Map<string, number>();
  for (const part of (acceptEncoding ?? '').toLowerCase().split(',')) {
    const [name, ...params] = part.trim().split(';');
    const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find(Boolean);
    if (name) accepted.set(name.trim(), q === undefined ? 1 : Number(q));
  }
  const allows = (name: string) => (accepted.get(name) ?? accepted.get('*') ?? 0) > 0;
  return allows('br') ? 'br' : allows('gzip') ? 'gzip' : null;
}

/**
 * Sends an HTML page made for this answer (it carries a fresh CSP nonce, so it cannot be compressed at
 * build time): compressed here, by the request's Accept-Encoding. A page is a few KiB: a fast brotli level.
 */
function sendPage(request: FastifyRequest, reply: FastifyReply, html: string): FastifyReply {
  reply.code(200).header('Cache-Control', 'no-cache').header('Vary', 'Accept-Encoding').type('text/html; charset=utf-8');
  const encoding = preferredEncoding(request.headers['accept-encoding']);
  if (!encoding) return reply.send(html);
  const body =
    encoding === 'br' ? brotliCompressSync(html, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 5 } }) : gzipSync(html, { level: 6 });
  return reply.header('Content-Encoding', encoding).send(body);
}

/**
 * Compressed API answers (issue 14 "Transfer"): JSON, HTML and text above 1 KiB leave in brotli
 * (preferred) or gzip by the request's Accept-Encoding, with `Vary: Accept-Encoding`. Register it
 * before the routes: @fastify/compress hooks every route declared after it. Request bodies are not
 * decompressed (no route takes a compressed upload, and body limits stay about the bytes received).
 */
export const compression = fp(
  async (app: FastifyInstance) => {
    app.addHook('onRoute', (route) => {
      route.decompress ??= false;
    });
    await app.register(fastifyCompress, { global: true, threshold: COMPRESS_THRESHOLD, encodings: ['br', 'gzip'] });
  },
  { name: 'ghiseu-compression' },
);

/**
 * The built browser app (`npm start`): `assets/` (hashed names) cached for a year as immutable, everything
 * else (favicon) revalidated (`no-cache`, with ETag and Last-Modified). Files are sent as compressed at
 * build time (`preCompressed`: `.br`, else `.gz`, else the file itself); source maps are never served.
 * Every page route is the app's index.html (for a guest page, its prerendered copy with that page's
 * modulepreload links), read once at start and sent with a fresh style nonce (security-headers.ts),
 * compressed per answer and revalidated (`no-cache`): the app's router shows the page or the 404 copy.
 */
export const staticAssets = fp(
  async (app: FastifyInstance) => {
    const { staticDir, serveStatic } = app.config;
    const hasStatic = serveStatic && fs.existsSync(path.join(staticDir, 'index.html'));
    // `pages/<route>.html`: index.html plus the modulepreload links of that route's chunks (scripts/vite-plugin-route-pages.ts).
    const routePages = new Map<string, string>();
    const pagesDir = path.join(staticDir, 'pages');
    if (hasStatic && fs.existsSync(pagesDir)) {
      for (const file of fs.readdirSync(pagesDir, { recursive: true, encoding: 'utf8' })) {
        if (file.endsWith('.html')) routePages.set(`/${file.slice(0, -'.html'.length).split(path.sep).join('/')}`, fs.readFileSync(path.join(pagesDir, file), 'utf8'));
      }
    }
    const indexHtml = hasStatic ? fs.readFileSync(path.join(staticDir, 'index.html'), 'utf8') : '';
    if (hasStatic) {
      await app.register(fastifyStatic, {
        root: staticDir,
        wildcard: false,
        index: false,
        preCompressed: true,
        cacheControl: false,
        // Pages are sent by the not-found handler below (with their nonce), never as files.
        allowedPath: (pathname) => !/\.(?:map|html)(?:\.br|\.gz)?$/.test(pathname),
        setHeaders: (res, filePath) => {
          const inAssets = path.relative(staticDir, filePath).split(path.sep)[0] === 'assets';
          res.setHeader('Cache-Control', inAssets ? ONE_YEAR : 'no-cache');
          if (COMPRESSIBLE.test(filePath)) res.setHeader('Vary', 'Accept-Encoding');
        },
      });
    }

    app.setNotFoundHandler((request, reply) => {
      const url = request.url.split('?')[0];
      // A form sent by the browser itself (Enter on a prerendered page before its script ran: the
      // forms say method="post", so nothing typed goes into an address): back to the page, whose
      // script then takes the form. The fields are never read.
      if (request.method === 'POST' && hasStatic && isPagePath(url) && /^(?:application\/x-www-form-urlencoded|multipart\/form-data)\b/i.test(request.headers['content-type'] ?? '')) {
        return reply.code(303).header('Location', url).header('Cache-Control', 'no-store').send();
      }
      if (url.startsWith('/api/') || url.startsWith('/assets/') || (request.method !== 'GET' && request.method !== 'HEAD') || !hasStatic) {
        return reply.code(404).send({ message: 'Resursa nu a fost găsită.', payload: null });
      }
      const page = routePages.get(url.replace(/(.)\/$/, '$1')) ?? indexHtml;
      return sendPage(request, reply, appPageWithNonce(reply, page));
    });
  },
  { name: 'ghiseu-static-assets' },
);
