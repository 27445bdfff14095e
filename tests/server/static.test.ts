import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { testApp } from './helpers';
import { isPagePath } from '../../server/plugins/static-assets';

/** The built browser app served by the same server as the API (npm start). */
let app: FastifyInstance;
let dir: string;
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ghiseu-static-'));
  fs.mkdirSync(path.join(dir, 'assets'));
  fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>Ghișeu</title><div id="root"></div>');
  fs.writeFileSync(path.join(dir, 'assets', 'app-abc123.js'), 'console.log(1)');
  app = await testApp({ serveStatic: true, staticDir: dir });
});
afterAll(async () => {
  await app.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('the browser app', () => {
  it('answers every page route (GET and HEAD) with index.html, uncached, under a strict CSP', async () => {
    for (const url of ['/', '/login', '/infiintare-pfa/3', '/nu-exista?x=1']) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.body).toContain('<div id="root">');
      const csp = String(res.headers['content-security-policy']);
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toContain('unsafe-eval');
      const head = await app.inject({ method: 'HEAD', url });
      expect(head.statusCode, `HEAD ${url}`).toBe(200);
    }
  });

  it('serves hashed assets for a year, and 404 JSON for missing assets, API paths and other methods', async () => {
    const asset = await app.inject({ method: 'GET', url: '/assets/app-abc123.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toContain('immutable');
    for (const [method, url] of [['GET', '/assets/lipsa.js'], ['GET', '/api/nu-exista'], ['POST', '/login']] as const) {
      const res = await app.inject({ method, url });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json()).toEqual({ message: 'Resursa nu a fost găsită.', payload: null });
    }
  });

  it('a form the browser sent itself to a page (before the page script ran) goes back to the page, 303, its fields unread', async () => {
    for (const [url, type] of [
      ['/login', 'application/x-www-form-urlencoded'],
      ['/register/account', 'application/x-www-form-urlencoded; charset=UTF-8'],
      ['/password/forgot?x=1', 'multipart/form-data; boundary=b'],
    ] as const) {
      const res = await app.inject({ method: 'POST', url, headers: { 'content-type': type }, payload: type.startsWith('multipart') ? '--b--\r\n' : 'email=ana%40exemplu.ro&password=parola-sigura-1' });
      expect(res.statusCode, url).toBe(303);
      expect(res.headers.location).toBe(url.split('?')[0]);
      expect(res.body).toBe('');
    }
    // Never to another host (a path a browser reads as one), never for the API or JSON bodies.
    for (const [url, type] of [
      ['//evil.example/login', 'application/x-www-form-urlencoded'],
      ['/api/nu-exista', 'application/x-www-form-urlencoded'],
      ['/login', 'application/json'],
    ] as const) {
      const res = await app.inject({ method: 'POST', url, headers: { 'content-type': type }, payload: type === 'application/json' ? '{}' : 'a=b' });
      expect(res.statusCode, `${url} ${res.headers.location}`).toBe(404);
      expect(res.headers.location).toBeUndefined();
    }
    // `/\\host` is read as `//host` by browsers (inject parses it so before the app sees it).
    expect(['/login', '/register/account', '/infiintare-pfa/3'].every(isPagePath)).toBe(true);
    expect(['//evil.example/x', '/\\evil.example/x', '/a\\b', '/api/x', '/assets/a.js', 'login'].some(isPagePath)).toBe(false);
  });
});
