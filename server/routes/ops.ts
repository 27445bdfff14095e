import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { FieldValidationError } from '../lib/http-errors';
import { dbId } from '../lib/input-limits';
import { multipartBody, uploadsInOrder } from '../lib/multipart';
import { arrayOf, obj, otherReplies, ref, replies } from '../lib/api-schemas';
import { eraseOnRequest } from '../ops/erasure';
import { dossierView, findDossier, listDossiers, readDossier, signedDocumentFile } from '../ops/dossiers';
import { guardOpsRoutes, operatorOf } from '../ops/guard';
import { OPS_MESSAGES } from '../ops/messages';
import { TRADE_REGISTER_MAX_BYTES, TRADE_REGISTER_MAX_FILES, addTimelineItem, attachTradeRegisterDocuments } from '../registration/timeline';
import { createStaffUser, staffView, type StaffRole } from '../staff/accounts';
import { requestOwner } from '../registration/store';
import { OPS_ACTOR } from '../staff/audit';
import { askForMissingDocuments } from '../staff/dossier-actions';
import { encryptExistingFiles } from '../storage/encrypt-existing';
import {
  dateBody,
  eraseAnswer,
  eraseBody,
  mailQueued,
  missingDocumentsBody,
  opsDossier as dossier,
  opsDossierParams as dossierParams,
  opsDossierSummary,
  reencryptAnswer,
  staffBody,
  timelineBody,
  tradeRegisterDocument,
} from './dossier-schemas';
import { staffMemberSchema } from './staff';

export { OPS_MESSAGES } from '../ops/messages';

/**
 * The operator API (`npm run ops`, scripts/ops.ts): staff add status-timeline items and the trade
 * register's documents to a dossier while the server runs (the embedded database belongs to this
 * process, so the command talks HTTP). Every route needs `Authorization: Bearer <ops token>`
 * (`OPS_TOKEN`, else DATA_DIR/ops-token), compared in constant time; without a token (DATA_DIR
 * `:memory:` and no OPS_TOKEN) every route answers 404. A dossier is named by the request id or
 * by the applicant's e-mail. Every call names its operator in `X-Ops-Actor` (the CLI sends
 * OPS_ACTOR; trimmed, 1–100 printable characters, else 422): the audit log signs with it each
 * change and each read of an applicant's data (a dossier, a file, a search; issue 32). The work is
 * in server/ops/ (dossiers.ts, erasure.ts, guard.ts).
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

type DossierParams = { Params: { dossier: string } };

/** A POST without a body is an empty object. */
async function emptyBody(request: FastifyRequest): Promise<void> {
  request.body ??= {};
}

export default (async (app) => {
  guardOpsRoutes(app);

  /** `npm run ops -- files:reencrypt`: the re-encryption of the stored files now, after any run under way. */
  app.post(
    '/ops/files/reencrypt',
    { preValidation: emptyBody, schema: { body: { type: 'object', additionalProperties: false }, response: replies(reencryptAnswer, 'What the re-encryption of the stored files did') } },
    async () => ({ message: '', payload: await encryptExistingFiles({ database: app.database, storage: app.storage, log: app.log, wait: true }) }),
  );

  /** `npm run ops -- erase <e-mail> [--yes]` (issue 32): what an erasure removes and keeps; erases with `erase: true` (server/ops/erasure.ts). */
  app.post<{ Body: { email: string; erase?: boolean } }>(
    '/ops/users/erase',
    { schema: { body: eraseBody, response: replies(eraseAnswer, 'What the erasure removes and keeps (done when `erase` is true)') } },
    async (request) => eraseOnRequest(app, request.body.email.trim().toLowerCase(), request.body.erase, operatorOf(request)),
  );

  app.get<{ Querystring: { search?: string; limit: number } }>(
    '/ops/dossiers',
    {
      schema: {
        querystring: {
          type: 'object',
          properties: { search: { type: 'string', maxLength: 254 }, limit: { type: 'integer', minimum: 1, maximum: 1000, default: 100 } },
        },
        response: replies(arrayOf(obj(opsDossierSummary)), 'Dossiers, newest first'),
      },
    },
    async (request) => ({ message: '', payload: await listDossiers(app, request.query.search, request.query.limit) }),
  );

  app.get<DossierParams>('/ops/dossiers/:dossier', { schema: { params: dossierParams, response: replies(dossier) } }, async (request) => ({
    message: '',
    payload: await readDossier(app, request.params.dossier),
  }));

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
      const { document, data } = await signedDocumentFile(app, request.params.dossier, request.params.id);
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
    { schema: { params: dossierParams, body: timelineBody, response: replies(obj({ item: ref('timeline-item.json'), dossier }), 'The item added, and the dossier (201)') } },
    async (request, reply) => {
      const row = await findDossier(app, request.params.dossier);
      const item = await addTimelineItem(app, row, request.body, OPS_ACTOR);
      return reply.code(201).send({ message: OPS_MESSAGES.added, payload: { item, dossier: await dossierView(app, row.id) } });
    },
  );

  app.post<DossierParams & { Body: Record<string, unknown> }>(
    '/ops/dossiers/:dossier/documents',
    {
      preValidation: [
        multipartBody({ fileFields: ['files'], maxFileBytes: TRADE_REGISTER_MAX_BYTES, maxFiles: TRADE_REGISTER_MAX_FILES, tooLarge: OPS_MESSAGES.tooLarge, tooMany: OPS_MESSAGES.tooMany }),
        emptyBody,
      ],
      schema: { params: dossierParams, body: { type: 'object' }, response: replies(obj({ documents: arrayOf(tradeRegisterDocument), dossier }), 'Every trade register document of the dossier, and the dossier (201)') },
    },
    async (request, reply) => {
      const row = await findDossier(app, request.params.dossier);
      const documents = await attachTradeRegisterDocuments(app, row, uploadsInOrder(request.body), OPS_ACTOR);
      return reply.code(201).send({ message: OPS_MESSAGES.attached, payload: { documents, dossier: await dossierView(app, row.id) } });
    },
  );

  for (const [route, type, message] of [
    ['finalize', 'finalized', OPS_MESSAGES.finalized],
    ['reject', 'rejected', OPS_MESSAGES.rejected],
  ] as const) {
    app.post<DossierParams & { Body: { date?: string | null } }>(
      `/ops/dossiers/:dossier/${route}`,
      { preValidation: emptyBody, schema: { params: dossierParams, body: dateBody, response: replies(obj({ item: ref('timeline-item.json'), dossier }), `The ${type} item, and the dossier (201)`) } },
      async (request, reply) => {
        const row = await findDossier(app, request.params.dossier);
        const item = await addTimelineItem(app, row, { type, date: request.body.date ?? undefined }, OPS_ACTOR);
        return reply.code(201).send({ message, payload: { item, dossier: await dossierView(app, row.id) } });
      },
    );
  }

  app.post<DossierParams & { Body: { message: string } }>(
    '/ops/dossiers/:dossier/missing-documents',
    { schema: { params: dossierParams, body: missingDocumentsBody, response: replies(mailQueued, 'The mail queued to the applicant (201)') } },
    async (request, reply) => {
      const row = await findDossier(app, request.params.dossier);
      const mail = await askForMissingDocuments(app, row, (await requestOwner(app.db, row.id)).email, request.body.message, OPS_ACTOR);
      return reply.code(201).send({ message: OPS_MESSAGES.mailQueued, payload: mail });
    },
  );

  app.post<{ Body: { email: string; password: string; role: StaffRole } }>(
    '/ops/staff',
    { schema: { body: staffBody, response: replies(staffMemberSchema, 'The staff account made (201)') } },
    async (request, reply) => {
      const created = await createStaffUser(app.db, request.body);
      if (!created) throw new FieldValidationError({ email: [OPS_MESSAGES.staffTaken] }, OPS_MESSAGES.staffTaken);
      return reply.code(201).send({ message: OPS_MESSAGES.staffAdded, payload: staffView(created) });
    },
  );
}) satisfies FastifyPluginAsync;
