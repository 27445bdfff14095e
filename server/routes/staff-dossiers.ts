import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { TIMELINE_TYPES } from '../../src/core/timeline';
import { dbId } from '../lib/input-limits';
import { multipartBody, uploadsInOrder } from '../lib/multipart';
import { arrayOf, int, obj, otherReplies, ref, replies, str } from '../lib/api-schemas';
import { TIMELINE_SCHEMAS, TRADE_REGISTER_MAX_BYTES, TRADE_REGISTER_MAX_FILES, addTimelineItem, attachTradeRegisterDocuments, timelineOf } from '../registration/timeline';
import { auditCsv, auditEntries, type Actor } from '../staff/audit';
import { askForMissingDocuments } from '../staff/dossier-actions';
import { DOSSIER_MESSAGES, dossierDetail, dossierFile, dossierList, findDossier, type ConsoleQuery } from '../staff/dossier-console';
import {
  auditEntry,
  consoleDossierDetail,
  consoleDossierItem,
  consoleIdParams as idParams,
  consoleListQuery,
  dateBody,
  mailQueued,
  missingDocumentsBody,
  timelineBody,
} from './dossier-schemas';

export { DOSSIER_MESSAGES } from '../staff/dossier-console';

type IdParams = { Params: { id: number } };

/** A POST without a body is an empty object. */
async function emptyBody(request: FastifyRequest): Promise<void> {
  request.body ??= {};
}

const actorOf = (request: FastifyRequest): Actor => ({ staffUserId: request.staff!.id });

/**
 * The operator console's API (issue 18), `/api/staff/…`, for staff of role `operator` (an editor:
 * 403; no staff session, an applicant's token: 401). The reads are server/staff/dossier-console.ts;
 * every change goes through the services the ops API uses (server/registration/timeline.ts,
 * server/staff/dossier-actions.ts) and writes its audit entry in the same transaction. The
 * contract: the response schemas (server/routes/dossier-schemas.ts, /api/docs/json), docs/operations.md.
 */
export default (async (app) => {
  app.addHook('onRequest', app.staffOnly('operator'));

  app.get(
    '/staff/timeline-types',
    { schema: { response: replies(arrayOf(obj({ type: str, schema: {} })), 'Each timeline item type with its JSON Schema (the fields the console asks for)') } },
    async () => ({ message: '', payload: TIMELINE_TYPES.map((type) => ({ type, schema: TIMELINE_SCHEMAS[type] })) }),
  );

  app.get<{ Querystring: ConsoleQuery }>(
    '/staff/dossiers',
    { schema: { querystring: consoleListQuery, response: replies(obj({ items: arrayOf(consoleDossierItem), total: int, page: int, page_size: int }), 'A page of dossiers, newest first') } },
    async (request) => ({ message: '', payload: await dossierList(app, request.staff!.id, request.query) }),
  );

  app.get<IdParams>('/staff/dossiers/:id', { schema: { params: idParams, response: replies(consoleDossierDetail, 'Everything about one dossier') } }, async (request) => ({
    message: '',
    payload: await dossierDetail(app, request.staff!.id, request.params.id),
  }));

  /** One file of the dossier's applicant (identity photo, document, licence, signature, trade register document, signed PDF). */
  app.get<{ Params: { id: number; fileId: number } }>(
    '/staff/dossiers/:id/files/:fileId',
    {
      schema: {
        params: { type: 'object', required: ['id', 'fileId'], properties: { id: dbId, fileId: dbId } },
        response: otherReplies('A file of the dossier, as an attachment', 'application/octet-stream'),
      },
    },
    async (request, reply) => {
      const { file, data } = await dossierFile(app, request.staff!.id, request.params.id, request.params.fileId);
      const ascii = file.name.replace(/[^\x20-\x7e]|["\\]/g, '_');
      return reply
        .header('Content-Type', file.contentType)
        .header('Content-Length', String(data.length))
        .header('Cache-Control', 'private, no-store')
        .header('X-Content-Type-Options', 'nosniff')
        .header('Content-Disposition', `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(file.name)}`)
        .send(data);
    },
  );

  app.post<IdParams & { Body: Record<string, unknown> }>(
    '/staff/dossiers/:id/timeline',
    {
      // The item's own JSON Schema (GET /staff/timeline-types) checks the rest of the body.
      schema: { params: idParams, body: timelineBody, response: replies(obj({ item: ref('timeline-item.json'), timeline: arrayOf(ref('timeline-item.json')) }), 'The item added and the whole timeline (201)') },
    },
    async (request, reply) => {
      const { request: row } = await findDossier(app, request.params.id);
      const item = await addTimelineItem(app, row, request.body, actorOf(request));
      return reply.code(201).send({ message: DOSSIER_MESSAGES.added, payload: { item, timeline: await timelineOf(app.db, row.id) } });
    },
  );

  app.post<IdParams & { Body: Record<string, unknown> }>(
    '/staff/dossiers/:id/documents',
    {
      preValidation: [
        multipartBody({ fileFields: ['files'], maxFileBytes: TRADE_REGISTER_MAX_BYTES, maxFiles: TRADE_REGISTER_MAX_FILES, tooLarge: DOSSIER_MESSAGES.tooLarge, tooMany: DOSSIER_MESSAGES.tooMany }),
        emptyBody,
      ],
      schema: { params: idParams, body: { type: 'object' }, response: replies(obj({ documents: arrayOf(obj({ id: int, name: str })) }), 'Every trade register document of the dossier (201)') },
    },
    async (request, reply) => {
      const { request: row } = await findDossier(app, request.params.id);
      const documents = await attachTradeRegisterDocuments(app, row, uploadsInOrder(request.body), actorOf(request));
      return reply.code(201).send({ message: DOSSIER_MESSAGES.attached, payload: { documents } });
    },
  );

  for (const [route, type, message] of [
    ['finalize', 'finalized', DOSSIER_MESSAGES.finalized],
    ['reject', 'rejected', DOSSIER_MESSAGES.rejected],
  ] as const) {
    app.post<IdParams & { Body: { date?: string | null } }>(
      `/staff/dossiers/:id/${route}`,
      {
        preValidation: emptyBody,
        schema: { params: idParams, body: dateBody, response: replies(obj({ item: ref('timeline-item.json'), status: str }), `The ${type} item; the dossier's status is now ${type} (201)`) },
      },
      async (request, reply) => {
        const { request: row } = await findDossier(app, request.params.id);
        const item = await addTimelineItem(app, row, { type, date: request.body.date ?? undefined }, actorOf(request));
        return reply.code(201).send({ message, payload: { item, status: type } });
      },
    );
  }

  app.post<IdParams & { Body: { message: string } }>(
    '/staff/dossiers/:id/missing-documents',
    { schema: { params: idParams, body: missingDocumentsBody, response: replies(mailQueued, 'The mail queued to the applicant (201)') } },
    async (request, reply) => {
      const { request: row, user } = await findDossier(app, request.params.id);
      const mail = await askForMissingDocuments(app, row, user.email, request.body.message, actorOf(request));
      return reply.code(201).send({ message: DOSSIER_MESSAGES.mailQueued, payload: mail });
    },
  );

  app.get<IdParams>('/staff/dossiers/:id/audit', { schema: { params: idParams, response: replies(arrayOf(auditEntry), "The dossier's audit entries, newest first") } }, async (request) => {
    const { request: row } = await findDossier(app, request.params.id);
    return { message: '', payload: await auditEntries(app.db, { requestId: row.id }) };
  });

  app.get<{ Querystring: { dossier?: number } }>(
    '/staff/audit.csv',
    {
      schema: {
        querystring: { type: 'object', properties: { dossier: dbId } },
        response: otherReplies('The audit log as CSV (UTF-8 with BOM, comma-separated, newest first); `dossier`: of one dossier', 'text/csv'),
      },
    },
    async (request, reply) => {
      const { dossier } = request.query;
      if (dossier !== undefined) await findDossier(app, dossier);
      const csv = auditCsv(await auditEntries(app.db, { requestId: dossier }));
      const name = dossier === undefined ? 'audit.csv' : `audit-dosar-${dossier}.csv`;
      return reply
        .header('Content-Type', 'text/csv; charset=utf-8')
        .header('Cache-Control', 'private, no-store')
        .header('Content-Disposition', `attachment; filename="${name}"`)
        .send(csv);
    },
  );
}) satisfies FastifyPluginAsync;
