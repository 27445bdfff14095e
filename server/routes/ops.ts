import { eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyPluginAsync, FastifyRequest } from 'fastify';
import { bearerToken } from '../plugins/auth';
import { FieldValidationError, HttpError } from '../lib/http-errors';
import { isUploadedFile, multipartBody, type UploadedFile } from '../lib/multipart';
import { resolveOpsToken, sameToken } from '../lib/ops-token';
import {
  TRADE_REGISTER_MAX_BYTES,
  TRADE_REGISTER_MAX_FILES,
  addTimelineItem,
  attachTradeRegisterDocuments,
  timelineOf,
  tradeRegisterDocumentsOf,
} from '../registration/timeline';
import { applicantName, type RequestRow } from '../registration/model';
import { dossierSummaries, requestById, requestsByEmail, type DossierSummaryRow } from '../registration/store';
import { signedDocumentsOf } from '../registration/signed-documents';
import { dbId } from '../lib/input-limits';
import { PASSWORD_MIN_LENGTH } from '../../src/core/registration';
import { READ_ACTIONS, auditedSearchTerm, opsActorName, recordAudit, withOpsActor, type Actor } from '../staff/audit';
import { askForMissingDocuments, DOSSIER_ACTION_MESSAGES } from '../staff/dossier-actions';
import { users } from '../db/schema';
import { encryptExistingFiles } from '../storage/encrypt-existing';
import { describeErasure, eraseAccount, userIdByEmail } from '../privacy/erase';
import { dossierPayments } from '../payment/billing';
import { createStaffUser, staffView, STAFF_ROLES, type StaffRole } from '../staff/accounts';
import { staffMemberSchema } from './staff';
import { arrayOf, bool, dateTime, int, nullStr, num, obj, otherReplies, ref, replies, str } from '../lib/api-schemas';

/** A dossier in the list (`summary` below). */
const dossierSummary = {
  id: int,
  email: str,
  name: nullStr,
  registration_type: { type: 'integer', enum: [1, 2] },
  step: str,
  status: str,
  paid: bool,
  created_at: dateTime,
  timeline_items: int,
} as const;
const tradeRegisterDocument = obj({ id: int, name: str });
/** A checkout of the dossier, with Stripe's subscription and schedule when there are some. */
/** A checkout of the dossier (`dossierPayments` in server/payment/billing.ts); the staff API answers it too. */
export const dossierPayment = obj({ id: str, provider: str, status: str, amount: num, currency: str, created_at: dateTime, paid_at: nullStr, subscription_id: nullStr, schedule_id: nullStr });
/** A signed PDF of the dossier (the contract, the power-of-attorney request). */
const signedDocument = obj({ id: int, kind: str, name: str, size: int });
/** A dossier with its timeline, payments, the trade register's documents and the signed PDFs (`dossierView` below). */
const dossier = obj({
  ...dossierSummary,
  timeline: arrayOf(ref('timeline-item.json')),
  payments: arrayOf(dossierPayment),
  trade_register_documents: arrayOf(tradeRegisterDocument),
  signed_documents: arrayOf(signedDocument),
});

/**
 * The operator API (`npm run ops`, scripts/ops.ts): staff add status-timeline items and the trade
 * register's documents to a dossier while the server runs (the embedded database belongs to this
 * process, so the command talks HTTP). Every route needs `Authorization: Bearer <ops token>`
 * (`OPS_TOKEN`, else DATA_DIR/ops-token), compared in constant time; without a token (DATA_DIR
 * `:memory:` and no OPS_TOKEN) every route answers 404. A dossier is named by the request id or
 * by the applicant's e-mail. Every call names its operator in `X-Ops-Actor` (the CLI sends
 * OPS_ACTOR; trimmed, 1–100 printable characters, else 422): the audit log signs with it each
 * change and each read of an applicant's data (a dossier, a file, a search; issue 32).
 *
 * - `GET  /api/ops/dossiers?search&limit`            newest first: id, email, name, registration_type, step, status, paid, created_at, timeline_items
 * - `GET  /api/ops/dossiers/:dossier`                 the dossier with its timeline, payments and documents
 * - `POST /api/ops/dossiers/:dossier/timeline`        `{ type, date?, ...fields }` (spec 001 §3); 201
 * - `POST /api/ops/dossiers/:dossier/documents`       multipart `files[n]`: the trade register's documents; 201
 * - `POST /api/ops/dossiers/:dossier/finalize`        `{ date? }`: status finalized + a `finalized` item; 201
 * - `GET  /api/ops/dossiers/:dossier/signed-documents/:id`  one signed PDF of the dossier (contract, power of attorney)
 * - `POST /api/ops/dossiers/:dossier/reject`          `{ date? }`: status rejected + a `rejected` item; 201
 * - `POST /api/ops/dossiers/:dossier/missing-documents` `{ message }`: a mail to the applicant through the queue; 201
 * - `POST /api/ops/staff`                             `{ email, password, role }`: a staff account (`npm run ops -- staff:add`); 201
 * - `POST /api/ops/users/erase`                       `{ email, erase? }`: what an erasure removes and keeps; erases with `erase: true`
 * - `POST /api/ops/retention`                         `{ as_of?, dry_run? }`: the retention job now (server/routes/ops-retention.ts)
 */

export const OPS_MESSAGES = {
  ...DOSSIER_ACTION_MESSAGES,
  disabled: 'API-ul operatorilor este dezactivat: setează OPS_TOKEN (sau un DATA_DIR pe disc).',
  unauthorized: 'Tokenul de operator lipsește sau nu este corect.',
  actor: 'Numește operatorul în antetul X-Ops-Actor (variabila OPS_ACTOR a comenzii): 1–100 caractere tipăribile.',
  notFound: (dossier: string) => `Dosarul „${dossier}” nu a fost găsit.`,
  badDossier: 'Numește dosarul prin id-ul cererii sau prin adresa de e-mail a solicitantului.',
  noSignedDocument: 'Dosarul nu are acest document semnat.',
  staffAdded: 'Contul de personal a fost creat.',
  staffTaken: 'Există deja un cont de personal cu această adresă de e-mail.',
  noAccount: (email: string) => `Nu există niciun cont cu adresa ${email}.`,
  erased: 'Contul și datele lui au fost șterse; solicitantul primește un e-mail de confirmare.',
} as const;

const dossierParams = {
  type: 'object',
  required: ['dossier'],
  properties: { dossier: { type: 'string', minLength: 1, maxLength: 254 } },
} as const;

type DossierParams = { Params: { dossier: string } };

/** The operator `X-Ops-Actor` names (checked by the onRequest hook before any handler). */
const operatorOf = (request: FastifyRequest): string => opsActorName(request.headers['x-ops-actor']) ?? '';
const actorOf = (request: FastifyRequest): Actor => ({ staffUserId: null, actor: operatorOf(request) });

/** A POST without a body is an empty object. */
async function emptyBody(request: FastifyRequest): Promise<void> {
  request.body ??= {};
}

/** The request named by id (digits) or by the applicant's e-mail (their new-PFA request first). */
async function findDossier(app: FastifyInstance, dossier: string): Promise<RequestRow> {
  const name = dossier.trim();
  let rows: RequestRow[];
  if (/^\d{1,9}$/.test(name)) {
    const row = await requestById(app.db, Number(name));
    rows = row ? [row] : [];
  } else if (name.includes('@')) {
    rows = await requestsByEmail(app.db, name.toLowerCase());
  } else {
    throw new FieldValidationError({ dossier: [OPS_MESSAGES.badDossier] }, OPS_MESSAGES.badDossier);
  }
  if (!rows[0]) throw new HttpError(404, OPS_MESSAGES.notFound(name));
  return rows[0];
}

type SummaryRow = DossierSummaryRow;

function summary(row: SummaryRow) {
  return {
    id: row.id,
    email: row.email,
    name: applicantName(row.profile),
    registration_type: row.registrationType,
    step: row.step,
    status: row.status,
    paid: row.paid,
    created_at: row.createdAt.toISOString(),
    timeline_items: row.timelineItems,
  };
}

/** A dossier as the ops API answers it: its summary, timeline and trade register documents. */
async function dossierView(app: FastifyInstance, requestId: number) {
  const [row] = await dossierSummaries(app.db, { id: requestId, limit: 1 });
  return {
    ...summary(row),
    timeline: await timelineOf(app.db, requestId),
    payments: await dossierPayments(app.db, requestId),
    trade_register_documents: await tradeRegisterDocumentsOf(app.db, { id: requestId, userId: row.userId }),
    signed_documents: (await signedDocumentsOf(app.db, { id: requestId, userId: row.userId })).map(({ id, kind, name, size }) => ({ id, kind, name, size })),
  };
}

/**
 * The guard of every operator route, for each plugin of `/api/ops/…` routes (this one,
 * ops-retention.ts), called first in it: 404 while the API is off, 401 without the ops token,
 * 422 without `X-Ops-Actor`; and every handler runs with the operator's name, which signs every
 * audit entry it writes (the services' changes included).
 */
export function guardOpsRoutes(app: FastifyInstance): void {
  const token = resolveOpsToken(app.config);

  app.addHook('onRequest', async (request) => {
    if (!token) throw new HttpError(404, OPS_MESSAGES.disabled);
    const given = bearerToken(request);
    if (!given || !sameToken(given, token)) throw new HttpError(401, OPS_MESSAGES.unauthorized);
    const actor = opsActorName(request.headers['x-ops-actor']);
    if (!actor) throw new FieldValidationError({ 'X-Ops-Actor': [OPS_MESSAGES.actor] }, OPS_MESSAGES.actor);
  });

  // Every entry a handler writes (the services' changes included) is signed with the operator's name.
  app.addHook('onRoute', (route) => {
    const handler = route.handler;
    route.handler = function (this: FastifyInstance, request, reply) {
      return withOpsActor(operatorOf(request), async () => handler.call(this, request, reply));
    };
  });
}

export default (async (app) => {
  guardOpsRoutes(app);

  /** `npm run ops -- files:reencrypt`: the re-encryption of the stored files now, after any run under way. */
  app.post(
    '/ops/files/reencrypt',
    {
      preValidation: emptyBody,
      schema: {
        body: { type: 'object', additionalProperties: false },
        response: replies(
          obj({ checked: int, encrypted: int, rewrapped: int, current: int, missing: int, failed: int, skipped: bool, stopped: bool, key_id: str, duration_ms: int }),
          'What the re-encryption of the stored files did',
        ),
      },
    },
    async () => ({ message: '', payload: await encryptExistingFiles({ database: app.database, storage: app.storage, log: app.log, wait: true }) }),
  );

  /**
   * `npm run ops -- erase <e-mail> [--yes]` (issue 32, GDPR art. 17 by written request): without
   * `erase: true` only says what would go and what the law keeps; with it, erases the account as the
   * applicant's own erasure does (server/privacy/erase.ts), the audit entry naming the operator.
   */
  app.post<{ Body: { email: string; erase?: boolean } }>(
    '/ops/users/erase',
    {
      schema: {
        body: {
          type: 'object',
          required: ['email'],
          additionalProperties: false,
          properties: { email: { type: 'string', minLength: 3, maxLength: 254, pattern: '@' }, erase: { type: 'boolean', default: false } },
        },
        response: replies(
          obj({
            email: str,
            erased: bool,
            goes: arrayOf(str),
            kept: arrayOf(obj({ kind: str, count: int, keep_until: nullStr })),
            files_deleted: int,
          }),
          'What the erasure removes and keeps (done when `erase` is true)',
        ),
      },
    },
    async (request) => {
      const email = request.body.email.trim().toLowerCase();
      const userId = await userIdByEmail(app.db, email);
      if (userId === null) throw new HttpError(404, OPS_MESSAGES.noAccount(email));
      if (!request.body.erase) {
        const plan = await describeErasure(app.db, userId, app.config);
        if (!plan) throw new HttpError(404, OPS_MESSAGES.noAccount(email));
        return { message: '', payload: { email, erased: false, goes: plan.goes, kept: plan.kept, files_deleted: 0 } };
      }
      const done = await eraseAccount(app, userId, { by: 'operator', actor: operatorOf(request) });
      if (!done) throw new HttpError(404, OPS_MESSAGES.noAccount(email));
      return { message: OPS_MESSAGES.erased, payload: { email, erased: true, goes: done.goes, kept: done.kept, files_deleted: done.filesDeleted } };
    },
  );

  app.get<{ Querystring: { search?: string; limit: number } }>(
    '/ops/dossiers',
    {
      schema: {
        querystring: {
          type: 'object',
          properties: {
            search: { type: 'string', maxLength: 254 },
            limit: { type: 'integer', minimum: 1, maximum: 1000, default: 100 },
          },
        },
        response: replies(arrayOf(obj(dossierSummary)), 'Dossiers, newest first'),
      },
    },
    async (request) => {
      const { search, limit } = request.query;
      const term = search?.trim().toLowerCase();
      const rows = await dossierSummaries(app.db, { term, limit });
      // A search names a person: the search is recorded (issue 32), not its results.
      if (term) await recordAudit(app.db, { ...actorOf(request), action: READ_ACTIONS.search, after: { search: auditedSearchTerm(term) } });
      return { message: '', payload: rows.map(summary) };
    },
  );

  app.get<DossierParams>('/ops/dossiers/:dossier', { schema: { params: dossierParams, response: replies(dossier) } }, async (request) => {
    const row = await findDossier(app, request.params.dossier);
    const view = await dossierView(app, row.id);
    await recordAudit(app.db, { ...actorOf(request), action: READ_ACTIONS.dossier, requestId: row.id });
    return { message: '', payload: view };
  });

  /** One signed PDF of the dossier (the ids `GET /ops/dossiers/:dossier` lists); any other file: 404. */
  app.get<{ Params: { dossier: string; id: number } }>(
    '/ops/dossiers/:dossier/signed-documents/:id',
    {
      schema: {
        params: { type: 'object', required: ['dossier', 'id'], properties: { ...dossierParams.properties, id: dbId } },
        response: otherReplies('A signed PDF of the dossier (legal-assistance contract or power-of-attorney request)', 'application/pdf'),
      },
    },
    async (request, reply) => {
      const row = await findDossier(app, request.params.dossier);
      const document = (await signedDocumentsOf(app.db, row)).find((d) => d.id === request.params.id);
      const data = document ? await app.storage.get(document.storageKey) : null;
      if (!document || !data) throw new HttpError(404, OPS_MESSAGES.noSignedDocument);
      await recordAudit(app.db, { ...actorOf(request), action: READ_ACTIONS.file, requestId: row.id, after: { kind: document.kind, id: document.id } });
      return reply
        .header('Content-Type', 'application/pdf')
        .header('Content-Length', String(data.length))
        .header('Cache-Control', 'private, no-store')
        .header('Content-Disposition', `attachment; filename="${document.name.replace(/[^\x20-\x7e]|"/g, '_')}"`)
        .send(data);
    },
  );

  app.post<DossierParams & { Body: Record<string, unknown> }>(
    '/ops/dossiers/:dossier/timeline',
    {
      schema: {
        params: dossierParams,
        // The item's own JSON Schema (server/registration/timeline.ts, by type) checks the rest.
        body: {
          type: 'object',
          required: ['type'],
          properties: { type: { type: 'string', maxLength: 50 }, date: { type: ['string', 'null'], maxLength: 10 } },
          additionalProperties: true,
        },
        response: replies(obj({ item: ref('timeline-item.json'), dossier }), 'The item added, and the dossier (201)'),
      },
    },
    async (request, reply) => {
      const row = await findDossier(app, request.params.dossier);
      const item = await addTimelineItem(app, row, request.body, actorOf(request));
      return reply.code(201).send({ message: OPS_MESSAGES.added, payload: { item, dossier: await dossierView(app, row.id) } });
    },
  );

  app.post<DossierParams & { Body: Record<string, unknown> }>(
    '/ops/dossiers/:dossier/documents',
    {
      preValidation: [
        multipartBody({
          fileFields: ['files'],
          maxFileBytes: TRADE_REGISTER_MAX_BYTES,
          maxFiles: TRADE_REGISTER_MAX_FILES,
          tooLarge: OPS_MESSAGES.tooLarge,
          tooMany: OPS_MESSAGES.tooMany,
        }),
        emptyBody,
      ],
      schema: { params: dossierParams, body: { type: 'object' }, response: replies(obj({ documents: arrayOf(tradeRegisterDocument), dossier }), 'Every trade register document of the dossier, and the dossier (201)') },
    },
    async (request, reply) => {
      const row = await findDossier(app, request.params.dossier);
      // files[n] in the sender's order (422 keys `files.N`, as for the applicant's uploads).
      const uploads = Object.entries(request.body)
        .filter((entry): entry is [string, UploadedFile] => isUploadedFile(entry[1]))
        .map(([key, file]) => ({ key: key.replace(/\[(\d+)\]$/, '.$1'), index: Number(/\[(\d+)\]$/.exec(key)?.[1] ?? 0), file }))
        .sort((a, b) => a.index - b.index);
      const documents = await attachTradeRegisterDocuments(app, row, uploads, actorOf(request));
      return reply.code(201).send({ message: OPS_MESSAGES.attached, payload: { documents, dossier: await dossierView(app, row.id) } });
    },
  );

  app.post<DossierParams & { Body: { date?: string | null } }>(
    '/ops/dossiers/:dossier/finalize',
    {
      preValidation: emptyBody,
      schema: {
        params: dossierParams,
        body: { type: 'object', properties: { date: { type: ['string', 'null'], maxLength: 10 } }, additionalProperties: false },
        response: replies(obj({ item: ref('timeline-item.json'), dossier }), 'The finalized item, and the dossier (201)'),
      },
    },
    async (request, reply) => {
      const row = await findDossier(app, request.params.dossier);
      const item = await addTimelineItem(app, row, { type: 'finalized', date: request.body.date ?? undefined }, actorOf(request));
      return reply.code(201).send({ message: OPS_MESSAGES.finalized, payload: { item, dossier: await dossierView(app, row.id) } });
    },
  );
  app.post<DossierParams & { Body: { date?: string | null } }>(
    '/ops/dossiers/:dossier/reject',
    {
      preValidation: emptyBody,
      schema: {
        params: dossierParams,
        body: { type: 'object', properties: { date: { type: ['string', 'null'], maxLength: 10 } }, additionalProperties: false },
        response: replies(obj({ item: ref('timeline-item.json'), dossier }), 'The rejected item, and the dossier (201)'),
      },
    },
    async (request, reply) => {
      const row = await findDossier(app, request.params.dossier);
      const item = await addTimelineItem(app, row, { type: 'rejected', date: request.body.date ?? undefined }, actorOf(request));
      return reply.code(201).send({ message: OPS_MESSAGES.rejected, payload: { item, dossier: await dossierView(app, row.id) } });
    },
  );

  app.post<DossierParams & { Body: { message: string } }>(
    '/ops/dossiers/:dossier/missing-documents',
    {
      schema: {
        params: dossierParams,
        body: { type: 'object', required: ['message'], properties: { message: { type: 'string', minLength: 1, maxLength: 2000, pattern: '\\S' } }, additionalProperties: false },
        response: replies(obj({ to: str, subject: str }), 'The mail queued to the applicant (201)'),
      },
    },
    async (request, reply) => {
      const row = await findDossier(app, request.params.dossier);
      const [owner] = await app.db.select({ email: users.email }).from(users).where(eq(users.id, row.userId));
      const mail = await askForMissingDocuments(app, row, owner.email, request.body.message, actorOf(request));
      return reply.code(201).send({ message: OPS_MESSAGES.mailQueued, payload: mail });
    },
  );

  app.post<{ Body: { email: string; password: string; role: StaffRole } }>(
    '/ops/staff',
    {
      schema: {
        body: {
          type: 'object',
          required: ['email', 'password', 'role'],
          properties: {
            email: { type: 'string', format: 'email', maxLength: 254 },
            password: { type: 'string', minLength: PASSWORD_MIN_LENGTH, maxLength: 200 },
            role: { type: 'string', enum: [...STAFF_ROLES] },
          },
          additionalProperties: false,
        },
        response: replies(staffMemberSchema, 'The staff account made (201)'),
      },
    },
    async (request, reply) => {
      const created = await createStaffUser(app.db, request.body);
      if (!created) throw new FieldValidationError({ email: [OPS_MESSAGES.staffTaken] }, OPS_MESSAGES.staffTaken);
      return reply.code(201).send({ message: OPS_MESSAGES.staffAdded, payload: staffView(created) });
    },
  );
}) satisfies FastifyPluginAsync;
