import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { CALLBACK_ORIGIN, auth, registerUser, testApp } from './helpers';

let app: FastifyInstance;
beforeAll(async () => {
  app = await testApp();
});
afterAll(() => app.close());

type Call = { method: 'GET' | 'POST'; url: string; token?: boolean; payload?: Record<string, unknown> };

describe('Cache-Control: no-store', () => {
  it('on every API answer that carries a token or personal data, on success and on error', async () => {
    const user = await registerUser(app);
    const calls: Call[] = [
      { method: 'POST', url: '/api/login', payload: { email: user.email, password: user.password } },
      { method: 'POST', url: '/api/login', payload: { email: user.email, password: 'alta-parola' } },
      { method: 'POST', url: '/api/auth', payload: { email: user.email, password: user.password, callbackUrl: `${CALLBACK_ORIGIN}/inapoi` } },
      { method: 'POST', url: '/api/register', payload: { email: 'nu-e-email', password: 'x' } },
      { method: 'GET', url: '/api/registration/open', token: true },
      { method: 'GET', url: '/api/registration/open' },
      { method: 'GET', url: '/api/user/auto-login-link', token: true },
      { method: 'POST', url: '/api/auto-login', payload: { token: 'inventat' } },
      { method: 'POST', url: '/api/password/forgot', payload: { email: user.email } },
      { method: 'POST', url: '/api/password/reset/inventat', payload: { password: 'parola-noua-1', password_confirmation: 'parola-noua-1' } },
      { method: 'GET', url: '/api/email/verify/inventat' },
      { method: 'GET', url: '/api/registration/overview', token: true },
      { method: 'GET', url: '/api/nomenclature/county/index/0/10' },
      { method: 'GET', url: '/api/nu-exista' },
      { method: 'POST', url: '/api/logout', token: true },
    ];
    for (const call of calls) {
      const res = await app.inject({ method: call.method, url: call.url, payload: call.payload, headers: call.token ? auth(user.token) : {} });
      expect(res.headers['cache-control'], `${call.method} ${call.url} → ${res.statusCode}`).toBe('no-store');
    }
  });

  it('on the dashboard hand-over page, which names the user', async () => {
    const user = await registerUser(app);
    const res = await app.inject({ method: 'GET', url: `/sso/${user.token}` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
  });
});

describe('browser security headers', () => {
  let dir: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ghiseu-headers-'));
    fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><html><head><title>Ghișeu</title></head><body><div id="root"></div></body></html>');
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('every answer: nosniff, referrer policy, no framing, COOP, camera for this origin only; no HSTS over http', async () => {
    const page = await testApp({ serveStatic: true, staticDir: dir });
    try {
      for (const url of ['/login', '/infiintare-pfa/3', '/api/partner/index']) {
        const res = await page.inject({ method: 'GET', url });
        expect(res.statusCode, url).toBe(200);
        expect(res.headers).toMatchObject({
          'x-content-type-options': 'nosniff',
          'referrer-policy': 'strict-origin-when-cross-origin',
          'x-frame-options': 'DENY',
          'cross-origin-opener-policy': 'same-origin',
        });
        const permissions = String(res.headers['permissions-policy']).split(', ');
        expect(permissions).toContain('camera=(self)');
        for (const feature of ['microphone', 'geolocation', 'payment', 'usb']) expect(permissions).toContain(`${feature}=()`);
        expect(res.headers['strict-transport-security']).toBeUndefined();
      }
      const html = await page.inject({ method: 'GET', url: '/login' });
      const csp = String(html.headers['content-security-policy']);
      expect(csp).toContain("script-src 'self';");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toMatch(/script-src[^;]*unsafe/);
    } finally {
      await page.close();
    }
  });

  it('the app page: no inline style without the fresh nonce that the page itself carries', async () => {
    const page = await testApp({ serveStatic: true, staticDir: dir });
    try {
      const nonces = [];
      for (const url of ['/login', '/login']) {
        const res = await page.inject({ method: 'GET', url });
        const csp = String(res.headers['content-security-policy']);
        expect(csp).not.toContain('unsafe-inline');
        const nonce = /style-src 'self' 'nonce-([A-Za-z0-9+/=]{24})';/.exec(csp)?.[1];
        expect(nonce, csp).toBeDefined();
        expect(res.body).toContain(`<meta property="csp-nonce" content="${nonce}">`);
        expect(res.body).toContain('<div id="root">');
        nonces.push(nonce);
      }
      expect(nonces[0]).not.toBe(nonces[1]);
      // Server-made pages (the dashboard stand-in) style themselves through a <style> block with their own nonce.
      const sso = await page.inject({ method: 'GET', url: '/sso/inventat' });
      const ssoCsp = String(sso.headers['content-security-policy']);
      expect(ssoCsp).not.toContain('unsafe-inline');
      const ssoNonce = /style-src 'self' 'nonce-([A-Za-z0-9+/=]{24})';/.exec(ssoCsp)?.[1];
      expect(sso.body).toContain(`<style nonce="${ssoNonce}">`);
      expect(sso.body).not.toContain('style="');
    } finally {
      await page.close();
    }
  });

  it("a prerendered page: its <style> elements get the nonce, its style attributes are allowed by their hash, nothing else", async () => {
    const prerendered = fs.mkdtempSync(path.join(os.tmpdir(), 'ghiseu-prerendered-'));
    fs.writeFileSync(path.join(prerendered, 'index.html'), '<!doctype html><html><head><title>Ghișeu</title></head><body><div id="root"></div></body></html>');
    fs.mkdirSync(path.join(prerendered, 'pages'));
    const hidden = 'border:0;clip:rect(0 0 0 0);height:1px;width:1px;position:absolute';
    fs.writeFileSync(
      path.join(prerendered, 'pages', 'register.html'),
      `<!doctype html><html><head><title>Ghișeu</title></head><body><div id="root" data-prerendered="/register"><style data-emotion="css 1x">.css-1x{color:red}</style><div style="position:relative"><input type="radio" style="${hidden}"></div><style data-emotion="css 2y">.css-2y{margin:0}</style></div></body></html>`,
    );
    const page = await testApp({ serveStatic: true, staticDir: prerendered });
    try {
      const res = await page.inject({ method: 'GET', url: '/register' });
      const csp = String(res.headers['content-security-policy']);
      const nonce = /'nonce-([A-Za-z0-9+/=]{24})'/.exec(csp)?.[1];
      expect(res.body.match(/<style nonce="([^"]+)" data-emotion/g)).toEqual([`<style nonce="${nonce}" data-emotion`, `<style nonce="${nonce}" data-emotion`]);
      const sha = (value: string) => createHash('sha256').update(value).digest('base64');
      expect(csp).toContain(`style-src 'self' 'nonce-${nonce}' 'unsafe-hashes' 'sha256-${sha('position:relative')}' 'sha256-${sha(hidden)}';`);
      expect(csp).not.toContain('unsafe-inline');
      // A page without style attributes needs no 'unsafe-hashes'.
      expect(String((await page.inject({ method: 'GET', url: '/login' })).headers['content-security-policy'])).not.toContain('unsafe-hashes');
    } finally {
      await page.close();
      fs.rmSync(prerendered, { recursive: true, force: true });
    }
  });

  it('HSTS for a year when PUBLIC_URL is https; the support widget may load its script', async () => {
    const secure = await testApp({ serveStatic: true, staticDir: dir, publicUrl: 'https://ghiseu.exemplu.ro', supportWidgetUrl: 'https://widget.exemplu.ro/w.js' });
    try {
      for (const url of ['/login', '/api/partner/index']) {
        const res = await secure.inject({ method: 'GET', url });
        const hsts = String(res.headers['strict-transport-security']);
        expect(hsts).toContain('includeSubDomains');
        expect(Number(/max-age=(\d+)/.exec(hsts)?.[1])).toBeGreaterThanOrEqual(365 * 24 * 3600);
      }
      const csp = String((await secure.inject({ method: 'GET', url: '/login' })).headers['content-security-policy']);
      expect(csp).toContain("script-src 'self' https://widget.exemplu.ro;");
    } finally {
      await secure.close();
    }
  });
});
