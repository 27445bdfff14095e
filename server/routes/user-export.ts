import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { HttpError } from '../lib/http-errors';
import { counted } from '../lib/rate-limits';
import { otherReplies } from '../lib/api-schemas';
import type { UserRow } from '../lib/tokens';
import { exportFileName, exportZip } from '../privacy/export-zip';

/** Exports per account per hour. */
export const EXPORTS_PER_HOUR = 3;

export const USER_EXPORT_MESSAGES = {
  tooMany: 'Ai cerut deja exportul datelor de mai multe ori în ultima oră. Încearcă din nou mai târziu.',
} as const;

const HOUR_MS = 60 * 60 * 1000;

/**
 * `GET /api/user/export` (issue 32, GDPR art. 15 and 20; DESIGN.md "Personal data"): everything the
 * product holds about the signed-in applicant as one zip, `date.json` first, then every file they
 * uploaded or signed as stored (server/privacy/). Streamed: each file is read from the storage only
 * when the zip reaches it. Only the token's user's data; at most EXPORTS_PER_HOUR per account and
 * hour (counted by @fastify/rate-limit: in Redis when REDIS_URL is set). Nothing personal in the
 * URL, the file name or the log.
 */
export default (async (app) => {
  const limit = app.createRateLimit({
    max: EXPORTS_PER_HOUR,
    timeWindow: HOUR_MS,
    keyGenerator: (request) => `user-export:${(request.user as UserRow).id}`,
  });
  const perAccount = async (request: FastifyRequest) => {
    const result = await counted(() => limit(request));
    if (!result.isAllowed && result.isExceeded) {
      throw new HttpError(429, USER_EXPORT_MESSAGES.tooMany, { retry_after: Math.max(1, result.ttlInSeconds) });
    }
  };

  app.get(
    '/user/export',
    {
      onRequest: [app.authenticate, perAccount],
      schema: {
        response: otherReplies('date-<product>-<YYYY-MM-DD>.zip: date.json and fisiere/…', 'application/zip'),
      },
    },
    async (request, reply) => {
      const user = request.user as UserRow;
      const now = new Date();
      const stream = await exportZip(app, user, request.log, now);
      return reply
        .header('Content-Type', 'application/zip')
        .header('Content-Disposition', `attachment; filename="${exportFileName(app.config.productSlug, now)}"`)
        .header('Cache-Control', 'no-store')
        .header('X-Content-Type-Options', 'nosniff')
        .send(stream);
    },
  );
}) satisfies FastifyPluginAsync;
