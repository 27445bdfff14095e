import { randomInt } from 'node:crypto';
import { expect } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { mergeProfile } from '../../server/registration/store';
import { auth, registerUser, uniqueEmail, type RegisteredUser } from './helpers';

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
