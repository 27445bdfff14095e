import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { isIsoDate } from '../../src/core/timeline';
import { FieldValidationError } from '../lib/http-errors';
import { arrayOf, bool, int, nullStr, obj, replies, str } from '../lib/api-schemas';
import { runRetention } from '../privacy/retention';
import { recordAudit } from '../staff/audit';
import { guardOpsRoutes } from '../ops/guard';
import type { AuditAction } from '../../src/core/audit';

export const RETENTION_MESSAGES = {
  invalid: 'Datele trimise nu sunt valide.',
  asOf: 'as_of trebuie să fie o zi din calendar, în formatul AAAA-LL-ZZ.',
  future: 'O rulare care chiar șterge nu poate fi în viitor: folosește dry_run pentru o zi care nu a venit încă.',
  unknown: 'Câmp necunoscut: sunt acceptate doar as_of și dry_run.',
  done: 'Rularea de retenție s-a încheiat.',
  dryRun: 'Simulare: nu s-a schimbat nimic.',
} as const;

const FIELDS = ['as_of', 'dry_run'];

/** The audit log's action of a run started by an operator (its entry holds the counts, no e-mail). */
export const RETENTION_AUDIT_ACTION = 'retention.run' satisfies AuditAction;

const line = obj({
  email: str,
  action: { type: 'string', enum: ['warn', 'erase', 'id_media', 'lost', 'retained_record'] },
  goes: arrayOf(str),
  kept: arrayOf(obj({ kind: str, keep_until: nullStr })),
  why: str,
  failed: bool,
});

const counts = obj({
  warned: int,
  erased: int,
  id_media: int,
  lost: int,
  retained_records: int,
  mails_deleted: int,
  files_deleted: int,
  failed: int,
});

/** A POST without a body is an empty object; a field other than as_of and dry_run is refused (not silently dropped). */
async function knownFields(request: FastifyRequest): Promise<void> {
  request.body ??= {};
  const body = request.body;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return;
  const unknown = Object.keys(body).filter((key) => !FIELDS.includes(key));
  if (unknown.length) throw new FieldValidationError(Object.fromEntries(unknown.map((key) => [key, [RETENTION_MESSAGES.unknown]])), RETENTION_MESSAGES.invalid);
}

/**
 * `POST /api/ops/retention` (`npm run ops -- retention [--as-of YYYY-MM-DD] [--dry-run]`, issue 32):
 * the retention job (server/privacy/retention.ts) now, behind the operator API's guard (ops token,
 * `X-Ops-Actor`). `as_of`: the day the periods are measured against (default today; the end of that
 * day, UTC), a day to come only with `dry_run`. `dry_run`: nothing changes, the answer says what
 * would go and why. The answer lists one line per application (e-mail, what goes, why) and the
 * counts; a real run is recorded in the audit log (`retention.run`, with the counts).
 */
export default (async (app) => {
  guardOpsRoutes(app);

  app.post<{ Body: { as_of?: string; dry_run?: boolean } }>(
    '/ops/retention',
    {
      preValidation: knownFields,
      schema: {
        body: {
          type: 'object',
          properties: { as_of: { type: 'string', maxLength: 10 }, dry_run: { type: 'boolean', default: false } },
        },
        response: replies(
          obj({ as_of: str, dry_run: bool, stopped: bool, lines: arrayOf(line), counts }),
          'What the retention run removed (or, dry, would remove), one line per application, and the counts',
        ),
      },
    },
    async (request) => {
      const { as_of: day, dry_run: dryRun = false } = request.body;
      const now = new Date();
      let asOf = now;
      if (day !== undefined) {
        if (!isIsoDate(day)) throw new FieldValidationError({ as_of: [RETENTION_MESSAGES.asOf] }, RETENTION_MESSAGES.invalid);
        const endOfDay = new Date(`${day}T23:59:59.999Z`);
        if (!dryRun && day > now.toISOString().slice(0, 10)) throw new FieldValidationError({ as_of: [RETENTION_MESSAGES.future] }, RETENTION_MESSAGES.invalid);
        asOf = dryRun || endOfDay < now ? endOfDay : now;
      }
      const report = await runRetention(app, { asOf, dryRun });
      if (!dryRun) await recordAudit(app.db, { staffUserId: null, action: RETENTION_AUDIT_ACTION, after: { as_of: report.as_of, counts: report.counts } });
      return { message: dryRun ? RETENTION_MESSAGES.dryRun : RETENTION_MESSAGES.done, payload: report };
    },
  );
}) satisfies FastifyPluginAsync;
