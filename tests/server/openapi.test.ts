import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import Fastify, { type FastifyInstance, type RouteOptions } from 'fastify';
import { SHARED_SCHEMAS } from '../../server/lib/api-schemas';
import { auth, registerUser, testApp, uniqueEmail, partnerBySlug } from './helpers';

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

/**
 * Routes that may answer without a response schema of their own, each with the reason. Nothing
 * else: every route of server/ (development-only ones included) declares its answers.
 */
const WITHOUT_ANSWER_SCHEMA: { reason: string; matches: (route: RouteOptions) => boolean }[] = [
  {
    reason: "@fastify/swagger(-ui)'s own routes: the OpenAPI document itself and the browsable page's files",
    matches: (route) => route.url === '/api/docs' || route.url.startsWith('/api/docs/'),
  },
  {
    reason: "@fastify/static's routes (SERVE_STATIC): the built browser app's files, hidden from the document",
    matches: (route) => route.schema?.hide === true && !route.url.startsWith('/api/') && /\.[a-z0-9]+$/i.test(route.url),
  },
];

/** A schema that says something (a type, a reference, a content), not `{}` (anything). */
function describes(schema: unknown): boolean {
  if (!schema || typeof schema !== 'object') return false;
  const s = schema as Record<string, unknown>;
  return ['type', '$ref', 'content', 'anyOf', 'oneOf', 'allOf', 'const', 'enum'].some((key) => key in s);
}

/**
 * Each route without a real success answer, as "METHOD url: why": no `response`, no 2xx/3xx entry,
 * an empty schema, or an envelope whose `payload` is left open (`{}`). A redirect (3xx) is described
 * by its `description`; it has no body.
 */
export function routesWithoutAnswerSchema(routes: RouteOptions[]): string[] {
  const problems: string[] = [];
  for (const route of routes) {
    if (WITHOUT_ANSWER_SCHEMA.some((allowed) => allowed.matches(route))) continue;
    const name = `${[route.method].flat().join(',')} ${route.url}`;
    const response = route.schema?.response as Record<string, unknown> | undefined;
    const success = Object.entries(response ?? {}).filter(([code]) => /^[23]/.test(code));
    if (!success.length) {
      problems.push(`${name}: no 2xx answer schema`);
      continue;
    }
    for (const [code, schema] of success) {
      if (code.startsWith('3')) {
        if (!(schema as { description?: string })?.description) problems.push(`${name}: ${code} without a description`);
        continue;
      }
      if (!describes(schema)) {
        problems.push(`${name}: ${code} schema is empty`);
        continue;
      }
      const payload = (schema as { properties?: { payload?: unknown } }).properties?.payload;
      if (payload !== undefined && !describes(payload)) problems.push(`${name}: ${code} payload schema is empty`);
    }
  }
  return problems;
}

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

  it('registers no route without a non-empty 2xx answer schema (the allow-list names its reasons)', () => {
    // About seventy routes, HEAD copies included (a broken walk would find few).
    expect(app.registeredRoutes.length).toBeGreaterThan(60);
    expect(routesWithoutAnswerSchema(app.registeredRoutes)).toEqual([]);
    // The development-only routes are walked too (this app runs with the outbox and the simulated payment).
    const urls = app.registeredRoutes.map((r) => r.url);
    expect(urls).toEqual(expect.arrayContaining(['/api/dev/outbox', '/dev/outbox', '/api/stripe/pay/simulate', '/sso/:token']));
  });

  it('names a route added without an answer schema, or with an open payload', async () => {
    const other = Fastify();
    const routes: RouteOptions[] = [];
    other.addHook('onRoute', (route) => {
      routes.push(route);
    });
    other.get('/api/new-thing', async () => ({ message: '', payload: 1 }));
    other.post('/api/open-payload', { schema: { response: { 200: { type: 'object', properties: { message: { type: 'string' }, payload: {} } } } } }, async () => ({ message: '', payload: 1 }));
    other.post('/api/typed', { schema: { response: { 201: { type: 'object', properties: { message: { type: 'string' }, payload: { type: 'integer' } } } } } }, async () => ({ message: '', payload: 1 }));
    await other.ready();
    expect(routesWithoutAnswerSchema(routes)).toEqual([
      'GET /api/new-thing: no 2xx answer schema',
      'HEAD /api/new-thing: no 2xx answer schema',
      'POST /api/open-payload: 200 payload schema is empty',
    ]);
    await other.close();
  });

  it('sends a registration request, a session user and an error that validate against their schemas (Ajv over real answers)', async () => {
    const ajv = new Ajv({ allErrors: true, strict: false });
    addFormats(ajv);
    for (const schema of SHARED_SCHEMAS) ajv.addSchema(schema);
    const validRequest = ajv.getSchema('registration-request.json')!;
    const validUser = ajv.getSchema('session-user.json')!;
    const validError = ajv.getSchema('error-envelope.json')!;

    const partner = await partnerBySlug(app, 'neafiliat');
    const registered = await app.inject({
      method: 'POST',
      url: '/api/register',
      payload: { email: uniqueEmail(), password: 'parola-sigura', phone: '0712345678', referral_code: null, cookies: [], marketing_accepted: true, registration_type: 2, partner_id: partner.id },
    });
    expect(registered.statusCode).toBe(200);
    const user = registered.json().payload;
    expect(validUser(user), JSON.stringify(validUser.errors)).toBe(true);

    const open = await app.inject({ method: 'GET', url: '/api/registration/open', headers: auth(user.access_token) });
    expect(open.statusCode).toBe(200);
    const request = open.json().payload;
    expect(validRequest(request), JSON.stringify(validRequest.errors)).toBe(true);
    // Every field of the browser's RegistrationRequest arrives (src/core/api-types.ts).
    expect(Object.keys(request).sort()).toEqual(
      [
        'id', 'registration_type', 'step', 'status', 'lost_reason', 'form_data', 'profile', 'media', 'paid', 'paid_at', 'created_at', 'signature_file_id',
        'ghiseu_card_requested', 'mailing_address', 'status_timeline', 'steps', 'variants', 'company', 'partner',
      ].sort(),
    );
    // A step answered: the questionnaire, then the request as it moved on.
    const moved = await app.inject({
      method: 'POST',
      url: '/api/registration/open',
      headers: auth(user.access_token),
      payload: { current_step_identifier: request.step, reasons: ['niciuna'] },
    });
    expect(moved.statusCode).toBe(200);
    expect(moved.json().payload.step).not.toBe(request.step);
    expect(validRequest(moved.json().payload), JSON.stringify(validRequest.errors)).toBe(true);

    // A stale step (409) carries the request; a bad body (422) the field errors.
    const stale = await app.inject({ method: 'POST', url: '/api/registration/open', headers: auth(user.access_token), payload: { current_step_identifier: request.step, reasons: ['niciuna'] } });
    expect(stale.statusCode).toBe(409);
    expect(validError(stale.json())).toBe(true);
    expect(validRequest(stale.json().payload), JSON.stringify(validRequest.errors)).toBe(true);
    const bad = await app.inject({ method: 'POST', url: '/api/login', payload: { email: 'nu-este-email', password: '' } });
    expect(bad.statusCode).toBe(422);
    expect(validError(bad.json())).toBe(true);
    expect(Object.keys(bad.json().payload)).toEqual(expect.arrayContaining(['email']));
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
