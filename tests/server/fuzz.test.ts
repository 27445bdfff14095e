import type { FastifyInstance, RouteOptions } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { auth, placeAtStep, registerUser, testApp, type RegisteredUser } from './helpers';

/**
 * Issue 13: no input produces a 5xx. Seeded and bounded: every route the app registers (read from
 * `app.registeredRoutes`, filled by an onRoute hook, so a new route is fuzzed without touching this
 * file) gets generated requests: odd path params, query strings and bodies (huge, negative and
 * fractional numbers, NUL and control characters, lone surrogates, long and non-Latin text, wrong
 * types, nested objects, arrays, missing fields, malformed JSON, wrong content types, malformed
 * multipart), without a token, with an applicant's token (one applicant per step, so step routes get
 * past the "wrong step" check), with the operator token and with a forged token. No answer may be
 * ≥ 500, and the server answers afterwards. Replay a run with FUZZ_SEED=<the printed seed>.
 */
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) >>> 0 : (Date.now() ^ (process.pid << 16)) >>> 0;
const TOTAL = Number(process.env.FUZZ_REQUESTS ?? 2400);
const OPS_TOKEN = 'ops-test-token-0123456789abcdef';

/** mulberry32: small, seedable, good enough to pick inputs. */
function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)];
  return { next, int, pick, chance: (p: number) => next() < p };
}
type Rng = ReturnType<typeof prng>;

const NUMBERS = [0, -1, 1, 2, 1.5, -0.5, 2147483647, 2147483648, -2147483649, 2 ** 53 + 2, 2 ** 63, 1e308, -1e308, 1e-308, 4294967296];
const STRINGS = [
  '',
  ' ',
  'a\u0000b',
  '\u0000',
  'ab\u0001\u0007\u001b[31m',
  '\u007f\u0085',
  'a\ud800b',
  '\udfff',
  'Șoseaua Ștefan cel Mare nr. 1, bl. A2, ap. 3 — ăâîșț',
  '🙂👩‍👩‍👧',
  'line\nbreak\r\n\ttab',
  'x'.repeat(300),
  'é'.repeat(5000),
  "' OR 1=1 --",
  '%00',
  '%',
  '../../etc/passwd',
  '__proto__',
  'constructor',
  'toString',
  'null',
  'true',
  '2147483648',
  '1e308',
  '-1',
  '9223372036854775808',
  'NaN',
  'requesting-company-step-0',
  'codes',
  'personal_code',
  'ana@exemplu.ro',
  'ana\u0000@exemplu.ro',
  '<script>alert(1)</script>',
  '{"a":1}',
  '2026-02-30',
];
const PARAMS = ['1', '0', '-1', '2147483647', '2147483648', '1e308', '9223372036854775808', '1.5', 'abc', 'a%00b', '%00', '%01', '%7F', '%C3%A9', '%F0%9F%99%82', '%E2%82', 'x'.repeat(300), 'constructor', '__proto__', '%2e%2e%2f', 'null', '%20'];

/** encodeURIComponent, with a lone surrogate sent as the (invalid) UTF-8 bytes of one. */
function encode(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return '%ED%A0%80';
  }
}

function value(rng: Rng, depth = 0): unknown {
  const kind = rng.int(depth > 3 ? 4 : 8);
  switch (kind) {
    case 0:
    case 1:
      return rng.pick(NUMBERS);
    case 2:
      return rng.pick(STRINGS);
    case 3:
      return rng.pick([true, false, null, 'true', '1', 1]);
    case 4:
      return Array.from({ length: rng.int(4) }, () => value(rng, depth + 1));
    case 5:
      return Object.fromEntries(Array.from({ length: rng.int(4) }, () => [rng.pick(['a', 'id', 'type', 'file_id', '__proto__x', 'a\u0000b', 'data']), value(rng, depth + 1)]));
    case 6:
      return rng.pick(STRINGS) + rng.pick(STRINGS);
    default:
      return Array.from({ length: 30 }, () => rng.pick(NUMBERS));
  }
}

/** The values each property's `enum` allows, gathered from every schema (a valid one gets a request further). */
const ENUMS = new Map<string, unknown[]>();

/** Property names a schema (and its nested objects, refs to the step schemas) declares. */
function propertyNames(schema: unknown, schemas: Map<string, unknown>, out = new Set<string>(), depth = 0): Set<string> {
  if (!schema || typeof schema !== 'object' || depth > 6) return out;
  const s = schema as Record<string, unknown>;
  if (typeof s.$ref === 'string') propertyNames(schemas.get(s.$ref.replace(/#.*$/, '')), schemas, out, depth + 1);
  if (s.properties && typeof s.properties === 'object') {
    for (const [key, child] of Object.entries(s.properties)) {
      out.add(key);
      const allowed = (child as { enum?: unknown[] } | null)?.enum;
      if (Array.isArray(allowed)) ENUMS.set(key, [...(ENUMS.get(key) ?? []), ...allowed]);
      propertyNames(child, schemas, out, depth + 1);
    }
  }
  for (const key of ['required']) if (Array.isArray(s[key])) for (const name of s[key] as string[]) out.add(name);
  for (const key of ['items', 'then', 'else', 'if']) propertyNames(s[key], schemas, out, depth + 1);
  for (const key of ['anyOf', 'oneOf', 'allOf']) if (Array.isArray(s[key])) for (const child of s[key] as unknown[]) propertyNames(child, schemas, out, depth + 1);
  return out;
}

interface Target {
  method: string;
  url: string;
  bodyKeys: string[];
  queryKeys: string[];
  multipart: boolean;
  /** The applicant (at the step this endpoint submits) and the step id, for the step routes. */
  step?: string;
}

interface Sent {
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string | Buffer;
}

function multipartBody(rng: Rng, keys: string[]): { type: string; body: Buffer } {
  const boundary = `----fuzz${rng.int(1e9)}`;
  const parts: string[] = [];
  for (let i = rng.int(5); i > 0; i--) {
    const name = rng.chance(0.8) && keys.length ? rng.pick(keys) : rng.pick(STRINGS.filter((s) => !/[\r\n"]/.test(s)));
    if (rng.chance(0.3)) {
      parts.push(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${rng.pick(['a.jpg', 'a\u0001.png', '', 'x'.repeat(200)])}"\r\nContent-Type: ${rng.pick(['image/jpeg', 'application/pdf', 'text/plain'])}\r\n\r\n${rng.pick(['\xff\xd8\xff\xe0JFIF', '%PDF-1.4', 'text', ''])}\r\n`);
    } else {
      parts.push(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${String(rng.pick([...STRINGS, ...NUMBERS.map(String)]))}\r\n`);
    }
  }
  let body = parts.join('') + `--${boundary}--\r\n`;
  const mode = rng.int(6);
  if (mode === 0) body = body.slice(0, rng.int(body.length)); // cut short
  const type = mode === 1 ? 'multipart/form-data' : mode === 2 ? `multipart/form-data; boundary=other` : `multipart/form-data; boundary=${boundary}`;
  return { type, body: Buffer.from(body, 'latin1') };
}

function request(rng: Rng, target: Target, tokens: { applicant: string; ops: string; stepUsers: Map<string, string> }): Sent {
  let url = target.url.replace(/:(\w+)/g, () => (rng.chance(0.2) ? '1' : rng.pick(PARAMS)));
  const query: string[] = [];
  for (const key of target.queryKeys) if (rng.chance(0.6)) query.push(`${key}=${encode(String(rng.pick([...STRINGS, ...NUMBERS.map(String)])))}`);
  if (rng.chance(0.2)) query.push(rng.pick(['search_term=ab%00cd', 'offset=1e308', 'x=%00', 'a[b]=1', '%ff=1', 'county_id=2147483648&county_id=1']));
  if (query.length) url += `?${query.join('&')}`;

  const headers: Record<string, string> = {};
  const who = rng.int(5);
  if (who === 1) Object.assign(headers, auth(target.step ? (tokens.stepUsers.get(target.step) ?? tokens.applicant) : tokens.applicant));
  if (who === 2) headers.authorization = `Bearer ${tokens.ops}`;
  if (who === 3) headers.authorization = rng.pick(['Bearer ', 'Bearer x', `Bearer ${'a'.repeat(500)}`, 'Basic abc', 'Bearer 2147483648']);
  // An applicant of one of the flows (the loop puts them at this route's step, or at a random one).
  if (who === 4) Object.assign(headers, auth(target.step ? (tokens.stepUsers.get(target.step) ?? tokens.applicant) : rng.pick([...tokens.stepUsers.values()])));

  if (target.method === 'GET' || target.method === 'HEAD') return { method: target.method, url, headers };

  const shape = rng.int(10);
  if (shape < (target.multipart ? 4 : 1)) {
    const { type, body } = multipartBody(rng, target.bodyKeys);
    return { method: target.method, url, headers: { ...headers, 'content-type': type }, payload: body };
  }
  if (shape === 4) {
    const raw = rng.pick(['{', '{"a":', '[1,2', 'nul', '"\\u0000"', '{"__proto__":{"x":1}}', '{"constructor":{"prototype":{}}}', '', '1e999', '{"a":"\\ud800"}', `{"a":${'['.repeat(2000)}`]);
    return { method: target.method, url, headers: { ...headers, 'content-type': 'application/json' }, payload: raw };
  }
  if (shape === 5) {
    const type = rng.pick(['text/plain', 'application/x-www-form-urlencoded', 'application/xml', 'multipart/form-data', 'application/json; charset=latin1', 'image/png', '']);
    return { method: target.method, url, headers: { ...headers, 'content-type': type }, payload: rng.pick(['a=1&b=%00', 'x', '\u0000', '<a/>', '{"a":1}']) };
  }
  let body: unknown;
  if (shape === 6) body = value(rng);
  else {
    const object: Record<string, unknown> = {};
    for (const key of target.bodyKeys) if (rng.chance(0.75)) object[key] = ENUMS.has(key) && rng.chance(0.5) ? rng.pick(ENUMS.get(key) ?? []) : value(rng);
    if (target.step && rng.chance(0.7)) object.current_step_identifier = target.step;
    if (rng.chance(0.2)) object[rng.pick(['extra', 'id', 'user_id', 'a\u0000'])] = value(rng);
    body = object;
  }
  return { method: target.method, url, headers: { ...headers, 'content-type': 'application/json' }, payload: JSON.stringify(body) };
}

let app: FastifyInstance;
let applicant: RegisteredUser;
const stepUsers = new Map<string, string>();

/** One applicant per flow; before a step route is called with their token, they are put at that step. */
const flowUsers = new Map<number, RegisteredUser>();
const stepFlow = new Map<string, number>();

beforeAll(async () => {
  app = await testApp({ opsToken: OPS_TOKEN });
  applicant = await registerUser(app, { type: 2 });
  for (const flow of app.flows.flows) {
    const user = await registerUser(app, { type: flow.registrationType as 1 | 2 });
    flowUsers.set(flow.registrationType, user);
    for (const step of flow.steps) {
      stepUsers.set(step.id, user.token);
      stepFlow.set(step.id, flow.registrationType);
    }
  }
});

afterAll(async () => {
  await app.close();
});

it(`answers every generated request with less than 500 (seed ${SEED})`, { timeout: 240_000 }, async () => {
  console.log(`fuzz: seed ${SEED} (replay with FUZZ_SEED=${SEED})`);
  const rng = prng(SEED);
  const schemas = app.flows.schemas as Map<string, unknown>;
  const endpointSteps = new Map<string, string>();
  for (const flow of app.flows.flows) for (const step of flow.steps) endpointSteps.set(step.submit.endpoint, step.id);
  const stepKeys = [...schemas.values()].flatMap((s) => [...propertyNames(s, schemas)]);

  const targets: Target[] = [];
  for (const route of app.registeredRoutes as RouteOptions[]) {
    // HEAD routes are Fastify's copies of the GET routes; the static file routes (when built) serve files only.
    for (const method of [route.method].flat()) {
      if (method === 'HEAD' || route.url.includes('*')) continue;
      const schema = (route.schema ?? {}) as Record<string, unknown>;
      const step = endpointSteps.get(route.url);
      const bodyKeys = [...propertyNames(schema.body, schemas)];
      // Step routes only declare current_step_identifier: their fields are the step schemas'.
      if (step) bodyKeys.push(...stepKeys);
      targets.push({
        method,
        url: route.url,
        bodyKeys: [...new Set(bodyKeys)],
        queryKeys: [...propertyNames(schema.querystring, schemas)],
        // Any route may be sent multipart; those that read it (server/lib/multipart.ts) get it more often.
        multipart: Boolean(route.preValidation),
        step,
      });
    }
  }
  expect(targets.length).toBeGreaterThan(50);

  const perRoute = Math.ceil(TOTAL / targets.length);
  const failures: string[] = [];
  const statuses = new Map<number, number>();
  let sent = 0;
  for (let round = 0; round < perRoute; round++) {
    for (const target of targets) {
      const req = request(rng, target, { applicant: applicant.token, ops: OPS_TOKEN, stepUsers });
      const flowUser = [...flowUsers.values()].find((u) => req.headers.authorization === `Bearer ${u.token}`);
      if (flowUser) {
        const steps = [...stepFlow].filter(([, type]) => type === flowUser.user.registration_type).map(([id]) => id);
        await placeAtStep(app, flowUser, target.step ?? rng.pick(steps));
      }
      const res = await app.inject({ method: req.method as 'GET', url: req.url, headers: req.headers, payload: req.payload });
      sent++;
      statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
      if (res.statusCode >= 500) {
        const payload = typeof req.payload === 'string' ? req.payload : req.payload?.toString('latin1');
        failures.push(`${req.method} ${req.url} ${JSON.stringify(req.headers)} ${JSON.stringify(payload?.slice(0, 500))} -> ${res.statusCode} ${res.body.slice(0, 300)}`);
      }
    }
  }
  console.log(`fuzz: ${sent} requests over ${targets.length} routes, ${failures.length} answers >= 500; answers by status: ${JSON.stringify(Object.fromEntries([...statuses].sort((a, b) => a[0] - b[0])))}`);
  expect(sent).toBeGreaterThanOrEqual(2000);
  expect(failures, `seed ${SEED}:\n${failures.join('\n')}`).toEqual([]);

  const health = await app.inject({ method: 'GET', url: '/api/health' });
  expect(health.statusCode).toBe(200);
});
