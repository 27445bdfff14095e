import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { and, eq, isNull } from 'drizzle-orm';
import { auditLog, staffSessions, staffUsers } from '../../server/db/schema';
import { STAFF_AUTH_MESSAGES } from '../../server/plugins/staff-auth';
import { STAFF_MESSAGES } from '../../server/routes/staff';
import { OPS_MESSAGES } from '../../server/routes/ops';
import { auth, registerUser, testApp, uniqueEmail } from './helpers';

const OPS_TOKEN = 'ops-test-token-0123456789abcdef';
const ops = { authorization: `Bearer ${OPS_TOKEN}`, 'x-ops-actor': 'Ana Operator' };
const PASSWORD = 'parola-personal-1';

let app: FastifyInstance;
beforeAll(async () => {
  app = await testApp({ opsToken: OPS_TOKEN, loginMaxAttempts: 3 });
});
afterAll(() => app?.close());

async function addStaff(role: 'operator' | 'editor', email = uniqueEmail(role)) {
  const res = await app.inject({ method: 'POST', url: '/api/ops/staff', headers: ops, payload: { email, password: PASSWORD, role } });
  expect(res.statusCode).toBe(201);
  return { email: email.toLowerCase(), id: res.json().payload.id as number };
}

async function login(email: string, password = PASSWORD) {
  return app.inject({ method: 'POST', url: '/api/staff/login', payload: { email, password } });
}

async function staffToken(role: 'operator' | 'editor') {
  const { email, id } = await addStaff(role);
  const res = await login(email);
  expect(res.statusCode).toBe(200);
  return { email, id, token: res.json().payload.access_token as string };
}

describe('staff:add (POST /api/ops/staff)', () => {
  it('makes a staff account with a scrypt hash and writes an audit entry; the e-mail is lower-cased', async () => {
    const email = uniqueEmail('Operator').replace('operator', 'OPERATOR');
    const res = await app.inject({ method: 'POST', url: '/api/ops/staff', headers: ops, payload: { email, password: PASSWORD, role: 'operator' } });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ message: OPS_MESSAGES.staffAdded, payload: { email: email.toLowerCase(), role: 'operator' } });
    const [row] = await app.db.select().from(staffUsers).where(eq(staffUsers.email, email.toLowerCase()));
    expect(row.passwordHash).toMatch(/^scrypt\$32768\$8\$1\$/);
    const entries = await app.db.select().from(auditLog).where(and(eq(auditLog.action, 'staff.add'), isNull(auditLog.staffUserId)));
    expect(entries.find((e) => (e.after as { id: number }).id === row.id)?.after).toEqual({ id: row.id, email: email.toLowerCase(), role: 'operator' });
  });

  it('422 with field errors and nothing made: a taken e-mail, a short password, an unknown role, a bad e-mail', async () => {
    const { email } = await addStaff('editor');
    const taken = await app.inject({ method: 'POST', url: '/api/ops/staff', headers: ops, payload: { email: email.toUpperCase(), password: PASSWORD, role: 'operator' } });
    expect(taken.statusCode).toBe(422);
    expect(taken.json().payload).toEqual({ email: [OPS_MESSAGES.staffTaken] });
    const [kept] = await app.db.select().from(staffUsers).where(eq(staffUsers.email, email));
    expect(kept.role).toBe('editor');

    const other = uniqueEmail('bad');
    const bad = await app.inject({ method: 'POST', url: '/api/ops/staff', headers: ops, payload: { email: other, password: '12345', role: 'admin' } });
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json().payload).sort()).toEqual(['password', 'role']);
    const badEmail = await app.inject({ method: 'POST', url: '/api/ops/staff', headers: ops, payload: { email: 'nu-e-mail', password: PASSWORD, role: 'editor' } });
    expect(badEmail.statusCode).toBe(422);
    expect(badEmail.json().payload.email).toEqual(['Adresa de e-mail nu este validă.']);
    expect(await app.db.select().from(staffUsers).where(eq(staffUsers.email, other))).toEqual([]);
  });
});

describe('POST /api/staff/login, GET /api/staff/me, POST /api/staff/logout', () => {
  it('signs in with the e-mail in any case, answers the staff member; me answers them; logout ends the session', async () => {
    const { email, id } = await addStaff('editor');
    const res = await login(email.toUpperCase());
    expect(res.statusCode).toBe(200);
    const { message, payload } = res.json();
    expect(message).toBe(STAFF_MESSAGES.signedIn);
    expect(payload.staff).toMatchObject({ id, email, role: 'editor' });
    expect(payload.access_token).toMatch(/^[\w-]{43}$/);
    expect(new Date(payload.expires_at).getTime()).toBeGreaterThan(Date.now());

    const me = await app.inject({ method: 'GET', url: '/api/staff/me', headers: auth(payload.access_token) });
    expect(me.statusCode).toBe(200);
    expect(me.json().payload).toMatchObject({ id, email, role: 'editor' });

    const out = await app.inject({ method: 'POST', url: '/api/staff/logout', headers: auth(payload.access_token) });
    expect(out.statusCode).toBe(200);
    expect(out.json().message).toBe(STAFF_MESSAGES.signedOut);
    const after = await app.inject({ method: 'GET', url: '/api/staff/me', headers: auth(payload.access_token) });
    expect(after.statusCode).toBe(401);
    expect(after.json().message).toBe(STAFF_AUTH_MESSAGES.unauthorized);
  });

  it('a staff session lives in staff_sessions (only its hash), never in the applicants\' tokens', async () => {
    const { id, token } = await staffToken('operator');
    const sessions = await app.db.select().from(staffSessions).where(eq(staffSessions.staffUserId, id));
    expect(sessions).toHaveLength(1);
    expect(sessions[0].tokenHash).not.toBe(token);
  });

  it('a wrong password or an unknown e-mail: 422 on email with the same message, no session', async () => {
    const { email, id } = await addStaff('operator');
    for (const [e, p] of [[email, 'parola-gresita'], [uniqueEmail('nimeni'), PASSWORD]]) {
      const res = await login(e, p);
      expect(res.statusCode).toBe(422);
      expect(res.json()).toEqual({ message: STAFF_MESSAGES.wrongCredentials, payload: { email: [STAFF_MESSAGES.wrongCredentials] } });
    }
    expect(await app.db.select().from(staffSessions).where(eq(staffSessions.staffUserId, id))).toEqual([]);
    const empty = await app.inject({ method: 'POST', url: '/api/staff/login', payload: { email: 'x' } });
    expect(empty.statusCode).toBe(422);
    expect(Object.keys(empty.json().payload).sort()).toEqual(['email', 'password']);
  });

  it('login limits: after LOGIN_MAX_ATTEMPTS failures the e-mail answers 429 with Retry-After, even with the right password', async () => {
    const { email } = await addStaff('operator');
    for (let i = 0; i < 3; i += 1) expect((await login(email, 'parola-gresita')).statusCode).toBe(422);
    const blocked = await login(email);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().message).toBe(STAFF_MESSAGES.tooMany);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    // An applicant with the same address is counted apart.
    const applicant = await registerUser(app, { email });
    const applicantLogin = await app.inject({ method: 'POST', url: '/api/login', payload: { email, password: applicant.password } });
    expect(applicantLogin.statusCode).toBe(200);
    // Seven scrypt hashes (N=2^15) on a loaded machine: more than the default 20 s at times.
  }, 60_000);

  it('a right login resets the e-mail\'s failures', async () => {
    const { email } = await addStaff('operator');
    for (let i = 0; i < 2; i += 1) await login(email, 'parola-gresita');
    expect((await login(email)).statusCode).toBe(200);
    for (let i = 0; i < 2; i += 1) await login(email, 'parola-gresita');
    expect((await login(email)).statusCode).toBe(200);
    // Seven scrypt hashes (N=2^15) on a loaded machine: more than the default 20 s at times.
  }, 60_000);
});

describe('role separation, both ways', () => {
  it('an applicant\'s token or none gets 401 on /api/staff/*', async () => {
    const user = await registerUser(app);
    for (const headers of [{}, auth(user.token), { authorization: 'Basic abc' }]) {
      expect((await app.inject({ method: 'GET', url: '/api/staff/me', headers })).statusCode).toBe(401);
      expect((await app.inject({ method: 'POST', url: '/api/staff/logout', headers })).statusCode).toBe(401);
    }
    // The applicant's own session is untouched.
    expect((await app.inject({ method: 'GET', url: '/api/user/dashboard-redirect', headers: auth(user.token) })).statusCode).toBe(200);
  });

  it('a staff session gets 401 on the applicants\' routes', async () => {
    const { token } = await staffToken('operator');
    for (const url of ['/api/user/dashboard-redirect', '/api/registration/open']) {
      expect((await app.inject({ method: 'GET', url, headers: auth(token) })).statusCode).toBe(401);
    }
    expect((await app.inject({ method: 'POST', url: '/api/logout', headers: auth(token) })).statusCode).toBe(401);
    // Still a live staff session.
    expect((await app.inject({ method: 'GET', url: '/api/staff/me', headers: auth(token) })).statusCode).toBe(200);
  });

  it('app.staffOnly(role): the other role gets 403 (the operator console\'s API for an editor)', async () => {
    const editor = await staffToken('editor');
    const operator = await staffToken('operator');
    const asEditor = await app.inject({ method: 'GET', url: '/api/staff/dossiers', headers: auth(editor.token) });
    expect(asEditor.statusCode).toBe(403);
    expect(asEditor.json().message).toBe(STAFF_AUTH_MESSAGES.forbidden);
    expect((await app.inject({ method: 'GET', url: '/api/staff/dossiers', headers: auth(operator.token) })).statusCode).toBe(200);
    // Any role may ask who it is.
    expect((await app.inject({ method: 'GET', url: '/api/staff/me', headers: auth(editor.token) })).statusCode).toBe(200);
  });
});
