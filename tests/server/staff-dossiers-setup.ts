import { randomInt } from 'node:crypto';
import { afterAll, beforeAll, expect } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { mergeProfile } from '../../server/registration/store';
import { eq } from 'drizzle-orm';
import { auditLog } from '../../server/db/schema';
import { auth, registerUser, testApp, uniqueEmail, type RegisteredUser } from './helpers';

/** Shared by staff-dossiers.test.ts and staff-dossier-actions.test.ts. */

export const OPS_TOKEN = 'ops-test-token-0123456789abcdef';
export const ops = { authorization: `Bearer ${OPS_TOKEN}`, 'x-ops-actor': 'Ana Operator' };
export const PDF = (text: string) => Buffer.from(`%PDF-1.4\n% ${text}\n1 0 obj << >> endobj\n%%EOF\n`, 'latin1');

export interface StaffMember {
  id: number;
  email: string;
  token: string;
}

/** A new staff member of `role` (made through the ops API), signed in. */
export async function staffMember(app: FastifyInstance, role: 'operator' | 'editor'): Promise<StaffMember> {
  const email = uniqueEmail(role);
  const made = await app.inject({ method: 'POST', url: '/api/ops/staff', headers: ops, payload: { email, password: 'parola-personal-1', role } });
  expect(made.statusCode).toBe(201);
  const login = await app.inject({ method: 'POST', url: '/api/staff/login', payload: { email, password: 'parola-personal-1' } });
  return { id: made.json().payload.id as number, email, token: login.json().payload.access_token as string };
}

/** A 13-digit CNP-looking number no other test uses (the search is by substring). */
export const uniqueCnp = () => `1${String(Date.now()).slice(-6)}${String(randomInt(0, 999999)).padStart(6, '0')}`;

export interface ApplicantOptions {
  type?: 1 | 2;
  lastName?: string;
  firstName?: string;
  cnp?: string;
  partner?: string;
}

/** A new applicant with an open request whose profile has a name and a CNP. */
export async function applicantOf(app: FastifyInstance, options: ApplicantOptions = {}): Promise<RegisteredUser & { requestId: number; cnp: string }> {
  const type = options.type ?? 2;
  const user = await registerUser(app, { type, partner: options.partner });
  const res = await app.inject({ method: 'GET', url: type === 2 ? '/api/registration/open' : '/api/registration/existing/open', headers: auth(user.token) });
  const requestId = res.json().payload.id as number;
  const cnp = options.cnp ?? uniqueCnp();
  await mergeProfile(app.db, requestId, { last_name: options.lastName ?? 'Popescu', first_name: options.firstName ?? 'Ion', personal_code: cnp });
  return { ...user, requestId, cnp };
}

/** The app of a staff-dossier*.test.ts file and its two staff members, handed to `use` once made. */
export interface StaffConsole {
  app: FastifyInstance;
  operator: StaffMember;
  editor: StaffMember;
}

/**
 * The app of one staff-dossier*.test.ts file (with the ops token), an operator and an editor: made
 * before the file's tests (handed to `use`) and closed after, with the calls the files share. Calls
 * go as the operator unless other headers are given.
 */
export function staffConsoleApp(use: (made: StaffConsole) => void) {
  let made: StaffConsole;
  beforeAll(async () => {
    const app = await testApp({ opsToken: OPS_TOKEN });
    made = { app, operator: await staffMember(app, 'operator'), editor: await staffMember(app, 'editor') };
    use(made);
  });
  afterAll(() => made?.app.close());
  const as = (who: { token: string }) => auth(who.token);
  return {
    as,
    applicant: (options?: ApplicantOptions) => applicantOf(made.app, options),
    get: (url: string, headers?: Record<string, string>) => made.app.inject({ method: 'GET', url, headers: headers ?? as(made.operator) }),
    post: (url: string, payload: object | undefined, headers?: Record<string, string>) => made.app.inject({ method: 'POST', url, headers: headers ?? as(made.operator), payload }),
    auditOf: (requestId: number) => made.app.db.select().from(auditLog).where(eq(auditLog.requestId, requestId)),
  };
}
