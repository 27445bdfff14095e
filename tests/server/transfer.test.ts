import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { precompressDir } from '../../scripts/vite-plugin-precompress';
import { testApp } from './helpers';

/**
 * Issue 14 "Transfer": the built app is sent compressed at build time (brotli preferred, gzip fallback,
 * by Accept-Encoding), API JSON above 1 KiB compressed on the fly, hashed assets immutable, index.html
 * revalidated, no source map served.
 */
let app: FastifyInstance;
let dir: string;
const JS = `export const copy = ${JSON.stringify(Array.from({ length: 400 }, (_, i) => `Înființează-ți PFA-ul, pasul ${i}`))};\n`;
const CSS = `${Array.from({ length: 200 }, (_, i) => `.c${i}{color:#1a6285;margin:${i}px}`).join('\n')}\n`;
const HTML = `<!doctype html><html lang="ro"><head><title>Ghișeu</title><script type="module" src="/assets/index-abc123.js"></script></head><body><div id="root"></div></body></html>`;
const LOGIN_HTML = HTML.replace('</head>', '<link rel="modulepreload" crossorigin href="/assets/LoginPage-abc123.js"></head>');
const ACCOUNT_HTML = HTML.replace('</head>', '<link rel="modulepreload" crossorigin href="/assets/AccountPage-abc123.js"></head>');
const SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" fill="#1a6285"/></svg>`;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ghiseu-transfer-'));
  fs.mkdirSync(path.join(dir, 'assets'));
  fs.writeFileSync(path.join(dir, 'index.html'), HTML);
  fs.writeFileSync(path.join(dir, 'favicon.svg'), SVG);
  fs.writeFileSync(path.join(dir, 'assets', 'index-abc123.js'), JS);
  fs.writeFileSync(path.join(dir, 'assets', 'index-abc123.css'), CSS);
  fs.mkdirSync(path.join(dir, 'pages', 'register'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'pages', 'login.html'), LOGIN_HTML);
  fs.writeFileSync(path.join(dir, 'pages', 'register', 'account.html'), ACCOUNT_HTML);
  precompressDir(dir);
  // A map left in the folder by another build still is not served.
  fs.writeFileSync(path.join(dir, 'assets', 'index-abc123.js.map'), '{"version":3,"sources":["src/main.tsx"],"mappings":""}');
  app = await testApp({ serveStatic: true, staticDir: dir });
});
afterAll(async () => {
  await app.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

function decoded(res: { rawPayload: Buffer; headers: Record<string, unknown> }): string {
  const encoding = res.headers['content-encoding'];
  if (encoding === 'br') return brotliDecompressSync(res.rawPayload).toString('utf8');
  if (encoding === 'gzip') return gunzipSync(res.rawPayload).toString('utf8');
  return res.rawPayload.toString('utf8');
}

const vary = (res: { headers: Record<string, unknown> }) => String(res.headers.vary ?? '').toLowerCase();

/** A page as sent, less the style nonce it gets per answer (tests/server/security-headers.test.ts checks the nonce). */
const withoutNonce = (html: string) => html.replace(/<meta property="csp-nonce" content="[^"]*">\n/, '');

describe('static files', () => {
  const files = [
    ['/assets/index-abc123.js', JS, /javascript/],
    ['/assets/index-abc123.css', CSS, /^text\/css/],
    ['/favicon.svg', SVG, /^image\/svg\+xml/],
  ] as const;

  it('are sent in brotli when the browser accepts it, gzip otherwise, with Vary: Accept-Encoding', async () => {
    for (const [url, body, type] of files) {
      for (const [accept, expected] of [
        ['gzip, deflate, br, zstd', 'br'],
        ['br', 'br'],
        ['gzip, deflate', 'gzip'],
        ['gzip;q=1, br;q=0', 'gzip'],
      ] as const) {
        const res = await app.inject({ method: 'GET', url, headers: { 'accept-encoding': accept } });
        expect(res.statusCode, `${url} ${accept}`).toBe(200);
        expect(res.headers['content-encoding'], `${url} ${accept}`).toBe(expected);
        expect(res.headers['content-type'], url).toMatch(type);
        expect(vary(res), url).toContain('accept-encoding');
        expect(decoded(res), url).toBe(body);
        if (body.length > 1024) expect(res.rawPayload.length, url).toBeLessThan(Buffer.byteLength(body));
      }
    }
  });

  it('are sent as they are to a client that accepts no encoding (still Vary: Accept-Encoding)', async () => {
    for (const [url, body] of files) {
      for (const headers of [{}, { 'accept-encoding': 'identity' }]) {
        const res = await app.inject({ method: 'GET', url, headers });
        expect(res.statusCode, url).toBe(200);
        expect(res.headers['content-encoding'], url).toBeUndefined();
        expect(vary(res), url).toContain('accept-encoding');
        expect(res.body, url).toBe(body);
      }
    }
  });

  it('keeps hashed assets immutable for a year whatever the encoding', async () => {
    for (const accept of ['br', 'gzip', undefined]) {
      const res = await app.inject({ method: 'GET', url: '/assets/index-abc123.js', headers: accept ? { 'accept-encoding': accept } : {} });
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    }
  });

  it('serves no source map, not even one left in the folder', async () => {
    for (const url of ['/assets/index-abc123.js.map', '/assets/lipsa.js.map']) {
      const res = await app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'br, gzip' } });
      expect(res.statusCode, url).toBe(404);
      expect(res.json()).toEqual({ message: 'Resursa nu a fost găsită.', payload: null });
    }
  });
});

describe('index.html (every page route)', () => {
  it('is sent compressed and revalidated (no-cache, no ETag: each answer has its own nonce), never cached as immutable', async () => {
    for (const url of ['/', '/login', '/register/account', '/infiintare-pfa/3', '/index.html']) {
      const html = url === '/login' ? LOGIN_HTML : url === '/register/account' ? ACCOUNT_HTML : HTML;
      for (const [accept, expected] of [
        ['gzip, deflate, br', 'br'],
        ['gzip', 'gzip'],
        [undefined, undefined],
      ] as const) {
        const res = await app.inject({ method: 'GET', url, headers: accept ? { 'accept-encoding': accept } : {} });
        expect(res.statusCode, `${url} ${accept}`).toBe(200);
        expect(res.headers['content-type'], url).toMatch(/^text\/html/);
        expect(res.headers['content-encoding'], `${url} ${accept}`).toBe(expected);
        expect(vary(res), url).toContain('accept-encoding');
        expect(res.headers['cache-control'], url).toBe('no-cache');
        expect(res.headers.etag, url).toBeUndefined();
        expect(withoutNonce(decoded(res)), url).toBe(html);
      }
    }
  });

  it("a guest page gets its own copy, preloading that page's scripts; other addresses get index.html", async () => {
    for (const [url, html] of [
      ['/login', LOGIN_HTML],
      ['/login/', LOGIN_HTML],
      ['/login?next=%2Finregistrare', LOGIN_HTML],
      ['/register/account', ACCOUNT_HTML],
      ['/register/account/icredit', HTML],
      ['/register', HTML],
      ['/pages/login', HTML],
    ] as const) {
      const res = await app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'br' } });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-encoding'], url).toBe('br');
      expect(res.headers['cache-control'], url).toBe('no-cache');
      expect(withoutNonce(decoded(res)), url).toBe(html);
    }
  });

  it('is never answered 304: a kept copy would carry an old nonce', async () => {
    const first = await app.inject({ method: 'GET', url: '/login', headers: { 'accept-encoding': 'br' } });
    const again = await app.inject({ method: 'GET', url: '/login', headers: { 'accept-encoding': 'br', 'if-none-match': '"x"', 'if-modified-since': new Date().toUTCString() } });
    expect(again.statusCode).toBe(200);
    expect(decoded(again)).not.toBe(decoded(first));
    expect(withoutNonce(decoded(again))).toBe(withoutNonce(decoded(first)));
  });

  it('the page files themselves are not served as files (they would lack the nonce)', async () => {
    for (const url of ['/pages/login.html', '/pages/login.html.br', '/index.html.gz']) {
      const res = await app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'br' } });
      expect(res.headers['content-type'], url).toMatch(/^text\/html/);
      expect(decoded(res), url).toContain('<meta property="csp-nonce"');
    }
  });
});

describe('API answers', () => {
  it('a big JSON answer (the counties) comes in brotli or gzip by Accept-Encoding, with Vary', async () => {
    const url = '/api/nomenclature/county/index/0/100';
    const plain = await app.inject({ method: 'GET', url });
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(1024);
    for (const [accept, expected] of [
      ['gzip, deflate, br', 'br'],
      ['gzip', 'gzip'],
    ] as const) {
      const res = await app.inject({ method: 'GET', url, headers: { 'accept-encoding': accept } });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-encoding']).toBe(expected);
      expect(vary(res)).toContain('accept-encoding');
      expect(res.rawPayload.length).toBeLessThan(plain.rawPayload.length);
      expect(JSON.parse(decoded(res))).toEqual(plain.json());
      expect(plain.json().payload.data).toContainEqual(expect.objectContaining({ name: 'Cluj' }));
    }
  });

  it('a small JSON answer (under 1 KiB) is not worth compressing', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/nu-exista', headers: { 'accept-encoding': 'br, gzip' } });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.json()).toEqual({ message: 'Resursa nu a fost găsită.', payload: null });
  });
});
