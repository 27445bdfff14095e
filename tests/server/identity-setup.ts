import { afterAll, beforeAll, expect } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { auth, registerUser, testApp, type RegisteredUser } from './helpers';
import { storedFileCount } from './storage-helpers';
import { place, sessionWithUploads, submit, verify } from './identity-helpers';
import { localeText } from '../copy';

/** Shared by the identity-*.test.ts files (the identity step's API, split by concern). */

/** The Romanian reason of a Veriff code, as the identity step's copy has it (locales/ro/steps.json). */
export const reason = (code: number) => localeText(`steps:identity.reasons.${code}`);

export const query = (s: { session_id: string; custom_id: string }) => `session_id=${encodeURIComponent(s.session_id)}&custom_id=${encodeURIComponent(s.custom_id)}`;

/** A new applicant whose three photos the (instant) simulator approved. */
export async function approvedUserOf(app: FastifyInstance, type: 1 | 2 = 2): Promise<{ user: RegisteredUser; session: { session_id: string; custom_id: string } }> {
  const user = await registerUser(app, { type });
  const { session } = await sessionWithUploads(app, user.token);
  expect((await submit(app, user.token, session.session_id)).statusCode).toBe(200);
  expect((await verify(app, user.token, session)).json().payload).toEqual({ status: 2 });
  return { user, session };
}

/** POST /api/registration/update-user-info with a complete Cluj-Napoca address, `overrides` on top. */
export async function saveAddress(app: FastifyInstance, token: string, overrides: Record<string, unknown> = {}) {
  const cluj = await place(app, 'Cluj', 'Cluj-Napoca');
  return app.inject({
    method: 'POST',
    url: '/api/registration/update-user-info',
    headers: auth(token),
    payload: {
      first_name: 'Ana',
      last_name: 'Pop',
      place_of_birth: '',
      ...cluj,
      street: 'Memorandumului',
      number: '28',
      building: 'A2',
      entrance: 'B',
      floor: '3',
      apartment: '12',
      postal_code: '400114',
      ...overrides,
    },
  });
}

/**
 * The app of one identity-*.test.ts file, whose simulator decides at once (IDV_SIMULATOR_DELAY_MS=0):
 * made before the file's tests (handed to `use`) and closed after, with the calls the files share.
 */
export function identityApp(use: (app: FastifyInstance) => void) {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await testApp({ idvSimulatorDelayMs: 0 });
    use(app);
  });
  afterAll(() => app?.close());
  return {
    get: (url: string, token?: string) => app.inject({ method: 'GET', url, headers: token ? auth(token) : {} }),
    post: (url: string, token: string, payload: object = {}) => app.inject({ method: 'POST', url, payload, headers: auth(token) }),
    storedFiles: () => storedFileCount(app),
    approvedUser: (type?: 1 | 2) => approvedUserOf(app, type),
    address: (token: string, overrides?: Record<string, unknown>) => saveAddress(app, token, overrides),
  };
}
