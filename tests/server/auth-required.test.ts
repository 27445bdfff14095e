import type { FastifyInstance, RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ro } from '../../server/messages/ro';
import { STAFF_AUTH_MESSAGES } from '../../server/plugins/staff-auth';
import { OPS_MESSAGES } from '../../server/routes/ops';
import { operationTable, type Access, type OperationInfo } from '../../server/lib/openapi-operations';
import { auth, registerUser, testApp, uniqueEmail } from './helpers';

/**
 * Who may call what, for EVERY route the app registers (read from `app.registeredRoutes`, filled by
 * an onRoute hook: a new route is checked without touching this file). A route is either public, as
 * its row of the OpenAPI operations table declares (or UNDOCUMENTED_PUBLIC below), or refuses every caller without its own credentials with 401:
 * no Authorization header, a malformed one, an unknown token, and the credentials of the other
 * kinds of caller (an applicant's token, a staff session, the ops token). The body does not matter:
 * each POST/PUT/PATCH/DELETE is also sent without a body, with `{}` and with a JSON array, and still
 * answers 401: every sign-in check is an onRequest hook, so it runs before the body is parsed or
 * checked against the route's schema (a caller without credentials learns nothing of the fields).
 * What each 401 is about beyond "no valid credentials" (an expired, idle, revoked or signed-out
 * session, a deleted account, the read cache, the access log) stays in its own test file.
 */

const OPS_TOKEN = 'ops-test-token-0123456789abcdef';
const OPERATOR = 'Ana Operator';

/** A route as "METHOD /url", the url as registered (with its `:params`). */
type RouteKey = string;

/**
 * Who may call a route is declared once, in the OpenAPI operations table (server/lib/openapi-operations.ts:
 * `access`, which the document shows as the operation's `security`); this test holds every route to
 * it. The routes the document leaves out (`schema.hide`) have no row there: these, each with its reason.
 */
const UNDOCUMENTED_PUBLIC: { routes: (key: RouteKey) => boolean; reason: string }[] = [
  { routes: (key) => key === 'GET /dev/outbox', reason: 'development and tests only: the outbox page, answering this machine only, absent in production and with SMTP (server/routes/dev.ts)' },
  { routes: (key) => /^GET \/api\/docs(\/|$)/.test(key), reason: 'the OpenAPI document and its browsable page (openapi.test.ts)' },
  { routes: (key) => /^GET \/(?!api\/)\S*(\.[a-z0-9]+|\*)$/i.test(key), reason: "the built browser app's files (SERVE_STATIC=1 only, static.test.ts)" },
];

/** Who checks a route's credentials. */
type Guard = Exclude<Access, 'public'>;

const MESSAGE: Record<Guard, string> = {
  applicant: ro.envelope.unauthorized,
  staff: STAFF_AUTH_MESSAGES.unauthorized,
  operator: OPS_MESSAGES.unauthorized,
};

let app: FastifyInstance;
let operations: Map<RouteKey, OperationInfo>;
/** Credentials of each kind of caller, each refused by the other kinds' routes. */
const tokens = { applicant: '', operator: '', editor: '' };

async function staffSession(role: 'operator' | 'editor'): Promise<string> {
  const email = uniqueEmail(role);
  const headers = { authorization: `Bearer ${OPS_TOKEN}`, 'x-ops-actor': OPERATOR };
  expect((await app.inject({ method: 'POST', url: '/api/ops/staff', headers, payload: { email, password: 'parola-personal-1', role } })).statusCode).toBe(201);
  const login = await app.inject({ method: 'POST', url: '/api/staff/login', payload: { email, password: 'parola-personal-1' } });
  return login.json().payload.access_token as string;
}

beforeAll(async () => {
  app = await testApp({ opsToken: OPS_TOKEN });
  operations = operationTable(app.flows.flows);
  tokens.applicant = (await registerUser(app)).token;
  tokens.operator = await staffSession('operator');
  tokens.editor = await staffSession('editor');
});
afterAll(() => app?.close());

/** The Authorization headers a route of `guard` must refuse, by name. */
function refusedCredentials(guard: Guard): Record<string, Record<string, string>> {
  const malformed = {
    'no token': {},
    'a Basic header': { authorization: 'Basic YW5hOnBhcm9sYQ==' },
    '"Bearer" alone': { authorization: 'Bearer' },
    'an unknown token': { authorization: 'Bearer nu-exista-0123456789abcdef0123456789' },
  };
  const applicant = { "an applicant's token": auth(tokens.applicant) };
  const staff = { "an operator's staff session": auth(tokens.operator), "an editor's staff session": auth(tokens.editor) };
  const opsToken = { 'the ops token': { authorization: `Bearer ${OPS_TOKEN}` } };
  if (guard === 'applicant') return { ...malformed, ...staff, ...opsToken };
  if (guard === 'staff') return { ...malformed, ...applicant, ...opsToken };
  // The operator's name is sent too: only the token is missing.
  const withActor = (all: Record<string, Record<string, string>>) => Object.fromEntries(Object.entries(all).map(([name, headers]) => [name, { ...headers, 'x-ops-actor': OPERATOR }]));
  return withActor({ ...malformed, ...applicant, ...staff, 'the ops token with a character more': { authorization: `Bearer ${OPS_TOKEN}x` } });
}

/** Every route the app registers, as "METHOD /url" (HEAD routes are Fastify's copies of the GET routes). */
function registered(): RouteKey[] {
  const keys = (app.registeredRoutes as RouteOptions[]).flatMap((route) => [route.method].flat().filter((m) => m !== 'HEAD').map((method) => `${method} ${route.url}`));
  return [...new Set(keys)].sort();
}

/** Who may call the route: its row of the operations table, else public for the undocumented routes above; undefined for neither. */
const accessOf = (key: RouteKey): Access | undefined => operations.get(key)?.access ?? (UNDOCUMENTED_PUBLIC.some((p) => p.routes(key)) ? 'public' : undefined);

/** A url of the route: each `:param` is 1. */
const urlOf = (url: string) => url.replace(/:\w+/g, '1');

describe('every route needs its credentials, unless it is public', () => {
  it('every registered route has its callers declared', () => {
    const keys = registered();
    expect(keys.length).toBeGreaterThan(90);
    expect(keys.filter((key) => accessOf(key) === undefined)).toEqual([]);
  });

  it('answers 401 to every caller without its credentials, whatever the body', { timeout: 240_000 }, async () => {
    const failures: string[] = [];
    let checked = 0;
    let sent = 0;
    for (const key of registered()) {
      const access = accessOf(key);
      if (access === 'public' || access === undefined) continue;
      const guard: Guard = access;
      const [method, url] = key.split(' ') as [string, string];
      const hasBody = method !== 'GET';
      const send = async (name: string, headers: Record<string, string>, body: { name: string; payload?: unknown }, expected: number) => {
        const res = await app.inject({
          method: method as 'GET',
          url: urlOf(url),
          headers: body.payload === undefined ? headers : { ...headers, 'content-type': 'application/json' },
          payload: body.payload === undefined ? undefined : JSON.stringify(body.payload),
        });
        sent++;
        const message = res.headers['content-type']?.toString().startsWith('application/json') ? (res.json() as { message?: unknown }).message : undefined;
        if (res.statusCode !== expected || (expected === 401 && message !== MESSAGE[guard])) {
          failures.push(`${key} with ${name}, ${body.name}: ${res.statusCode} ${res.body.slice(0, 160)}`);
        }
      };
      const credentials = refusedCredentials(guard);
      const noBody = { name: 'no body' };
      const bodies = [noBody, { name: 'the body {}', payload: {} }, { name: 'the body [1]', payload: [1] }];
      // Every refused credential without a body …
      for (const [name, headers] of Object.entries(credentials)) await send(name, headers, noBody, 401);
      // … and the bodies with no token and an unknown one.
      if (hasBody) {
        for (const name of ['no token', 'an unknown token']) {
          for (const body of bodies) await send(name, credentials[name], body, 401);
        }
      }
      checked++;
    }
    console.log(`auth-required: ${registered().length} routes, ${registered().filter((key) => accessOf(key) === 'public').length} public, ${checked} refusing callers without credentials, ${sent} requests`);
    expect(failures).toEqual([]);
    expect(checked).toBeGreaterThan(60);
  });
});
