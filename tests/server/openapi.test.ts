import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { auth, registerUser, testApp } from './helpers';

const SPEC_DIR = '/work/shared/spec';
const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

/** Section 7 ("Calls") of a spec document. */
function callsSection(file: string): string {
  const text = fs.readFileSync(path.join(SPEC_DIR, file), 'utf8');
  const start = text.search(/^## 7\. /m);
  const end = text.search(/^## 8\. /m);
  if (start < 0 || end < start) throw new Error(`${file}: no §7`);
  return text.slice(start, end);
}

/**
 * The spec's placeholders (DESIGN.md "API conventions"): `{idv}` is `veriff` with 001 §7's concrete
 * paths, `{token}` the county list, `{hash}` the branch offices, "the url from the query" the reset
 * link's call.
 */
const PLACEHOLDERS: Record<string, string> = {
  'POST /api/{idv}/create-session': 'POST /api/veriff/create-veriff-session',
  'GET /api/{idv}/verify-session': 'GET /api/veriff/verify-veriff-session',
  'GET /api/{idv}/get-error': 'GET /api/veriff/get-veriff-error',
  'GET {token}': 'GET /api/nomenclature/county/index/{offset}/{limit}',
  'GET {hash}': 'GET /api/nomenclature/icredit-office/index',
  'POST to the url from the query': 'POST /api/password/reset/{token}',
};

/** Every "METHOD /path" of both documents' §7 (tables, lists and prose), placeholders mapped, queries dropped. */
function specCalls(): string[] {
  const calls = new Set<string>();
  for (const file of fs.readdirSync(SPEC_DIR).filter((f) => f.endsWith('.txt'))) {
    const section = callsSection(file);
    for (const match of section.matchAll(/\b(GET|POST|PUT|PATCH|DELETE) (\/api\/[^\s?;,|):]+|\{token\}|\{hash\}|to the url from the query)/g)) {
      let call = `${match[1]} ${match[2]}`;
      call = PLACEHOLDERS[call] ?? call.replace('/api/{idv}/', '/api/veriff/');
      calls.add(call);
    }
  }
  return [...calls].sort();
}

/** Path parameters compared by position, not name (the spec's {size} is the route's :limit). */
const shape = (call: string) => call.replace(/\{[^}]+\}/g, '{}');

describe('the OpenAPI document (GET /api/docs/json)', () => {
  let app: FastifyInstance;
  let doc: { openapi: string; paths: Record<string, Record<string, { responses: Record<string, unknown>; requestBody?: unknown }>>; components: { schemas: Record<string, unknown> } };

  beforeAll(async () => {
    app = await testApp();
    const res = await app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    doc = res.json();
  });
  afterAll(() => app?.close());

  it('is OpenAPI 3 and has every call of both specs §7 (method and path)', () => {
    expect(doc.openapi).toMatch(/^3\./);
    const documented = new Set(Object.entries(doc.paths).flatMap(([p, ops]) => Object.keys(ops).map((m) => shape(`${m.toUpperCase()} ${p}`))));
    const calls = specCalls();
    // Both documents' tables, lists and prose: about seventy calls (a broken parse would find few).
    expect(calls.length).toBeGreaterThan(60);
    const missing = calls.filter((call) => !documented.has(shape(call)));
    expect(missing).toEqual([]);
  });

  it('gives each step its schema from schemas/ by $id, and every operation its answers', () => {
    expect(Object.keys(doc.components.schemas)).toEqual(expect.arrayContaining(['documents.json', 'civil-status.json', 'card.json', 'error-envelope.json', 'registration-request.json']));
    const civil = JSON.stringify(doc.paths['/api/registration/collect/civil-status'].post.requestBody);
    expect(civil).toContain('#/components/schemas/civil-status.json');
    expect(civil).toContain('multipart/form-data');
    for (const [p, ops] of Object.entries(doc.paths)) {
      for (const method of METHODS) {
        const op = ops[method];
        if (!op) continue;
        const codes = Object.keys(op.responses);
        expect(codes.some((c) => /^(2|3)/.test(c)), `${method} ${p}: ${codes.join(',')}`).toBe(true);
        expect(codes, `${method} ${p}`).toContain('4XX');
      }
    }
  });

  it('registers no route without an answer schema', () => {
    const without = app.registeredRoutes.filter((r) => !r.schema?.response).map((r) => `${String(r.method)} ${r.url}`);
    expect(without).toEqual([]);
  });

  it('keeps the answers whole through the serializer (a step answer, an error envelope)', async () => {
    const user = await registerUser(app);
    const open = await app.inject({ method: 'GET', url: '/api/registration/open', headers: auth(user.token) });
    expect(open.statusCode).toBe(200);
    const request = open.json().payload;
    // Fields not listed in registration-request.json survive too (additionalProperties).
    expect(Object.keys(request)).toEqual(expect.arrayContaining(['id', 'step', 'steps', 'partner', 'form_data', 'media', 'variants', 'status_timeline']));
    expect(request.partner.prices.length).toBeGreaterThan(0);
    const bad = await app.inject({ method: 'POST', url: '/api/registration/collect/card', headers: auth(user.token), payload: { current_step_identifier: request.step, ghiseu_card_requested: 'poate' } });
    expect([409, 422]).toContain(bad.statusCode);
    expect(Object.keys(bad.json())).toEqual(['message', 'payload']);
  });

  it('shows the browsable page only on this machine, under a CSP that relaxes inline styles only there', async () => {
    const page = await app.inject({ method: 'GET', url: '/api/docs/' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-security-policy']).toContain("style-src 'self' 'unsafe-inline'");
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.headers['content-security-policy']).not.toMatch(/script-src[^;]*unsafe/);
    expect((await app.inject({ method: 'GET', url: '/api/docs/', remoteAddress: '203.0.113.7' })).statusCode).toBe(404);
    // Elsewhere the strict policy stays.
    const other = await app.inject({ method: 'GET', url: '/sso/nothing' });
    expect(other.headers['content-security-policy']).not.toContain('unsafe-inline');
  });
});
