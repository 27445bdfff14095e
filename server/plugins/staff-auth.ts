import fp from 'fastify-plugin';
import type { FastifyRequest } from 'fastify';
import { bearerToken } from './auth';
import { findStaffSession, type StaffRole, type StaffUserRow } from '../staff/accounts';
import { HttpError } from '../lib/http-errors';

export const STAFF_AUTH_MESSAGES = {
  unauthorized: 'Sesiunea de personal a expirat sau lipsește. Te rugăm să te autentifici din nou.',
  forbidden: 'Contul tău de personal nu are acces la această pagină.',
} as const;

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * An onRequest hook for staff routes: `{ onRequest: app.staffOnly('operator') }` (sign-in first, before the body is read or checked). Requires
     * `Authorization: Bearer <staff session>` (401 otherwise: an applicant's token is no staff
     * session) and, when roles are given, one of them (403 otherwise). Sets `request.staff`.
     */
    staffOnly: (...roles: StaffRole[]) => (request: FastifyRequest) => Promise<void>;
  }
  interface FastifyRequest {
    /** The signed-in staff member on routes guarded by `app.staffOnly`, else null. */
    staff: StaffUserRow | null;
    staffSessionId: number | null;
  }
}

/** Staff sign-in (issue 18): the staff sessions of server/staff/accounts.ts, never the applicants' tokens. */
export default fp(
  async (app) => {
    app.decorateRequest('staff', null);
    app.decorateRequest('staffSessionId', null);
    app.decorate('staffOnly', (...roles: StaffRole[]) => async (request: FastifyRequest) => {
      const secret = bearerToken(request);
      if (!secret) throw new HttpError(401, STAFF_AUTH_MESSAGES.unauthorized);
      const found = await findStaffSession(app.db, secret, app.config.accessTokenIdleMinutes);
      if (!found) throw new HttpError(401, STAFF_AUTH_MESSAGES.unauthorized);
      if (roles.length && !roles.includes(found.staff.role)) throw new HttpError(403, STAFF_AUTH_MESSAGES.forbidden);
      request.staff = found.staff;
      request.staffSessionId = found.session.id;
    });
  },
  { name: 'staff-auth', dependencies: ['config', 'database'], fastify: '5.x' },
);
