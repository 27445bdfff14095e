import type { FastifyInstance, FastifyPluginAsync, FastifyRequest } from 'fastify';
import { resolveFlow } from '../../src/core/flow';
import { TIMELINE_TYPES } from '../../src/core/timeline';
import { dossierPayments } from '../payment/billing';
import { dossierPayment } from './ops';
import { FieldValidationError, HttpError } from '../lib/http-errors';
import { dbId } from '../lib/input-limits';
import { isUploadedFile, multipartBody, type UploadedFile } from '../lib/multipart';
import { arrayOf, bool, dateTime, int, nullInt, nullStr, obj, otherReplies, ref, replies, str } from '../lib/api-schemas';
import { flowContext } from '../registration/model';
import { codesOf } from '../registration/overview';
import { serializeRequest } from '../registration/serialize';
import { applicantFiles, dossierPage, dossierWithOwner, type DossierPageRow } from '../registration/store';
import {
  TIMELINE_SCHEMAS,
  TRADE_REGISTER_MAX_BYTES,
  TRADE_REGISTER_MAX_FILES,
  addTimelineItem,
  attachTradeRegisterDocuments,
  timelineOf,
} from '../registration/timeline';
import { READ_ACTIONS, auditCsv, auditEntries, auditedSearchTerm, fileKindOf, recordAudit, type Actor } from '../staff/audit';
import { signatureFileIdOf } from '../registration/signature';
import { askForMissingDocuments, DOSSIER_ACTION_MESSAGES } from '../staff/dossier-actions';

export const DOSSIER_MESSAGES = {
  ...DOSSIER_ACTION_MESSAGES,
  notFound: 'Dosarul nu a fost găsit.',
  fileNotFound: 'Fișierul nu aparține acestui dosar.',
  unknownFlow: 'Fluxul nu există.',
  message: 'Scrie ce documente lipsesc (cel mult 2000 de caractere).',
} as const;

const anything = {} as const;
const dossierItem = obj({
  id: int,
  email: str,
  name: nullStr,
  cnp: nullStr,
  cui: nullStr,
  registration_type: int,
  flow: str,
  step: nullInt,
  step_id: str,
  paid: bool,
  status: str,
  partner: str,
  created_at: dateTime,
});
const auditEntry = obj({ id: int, at: dateTime, staff_user_id: nullInt, staff_email: nullStr, actor: nullStr, action: str, request_id: nullInt, before: anything, after: anything });
const dossierFile = obj({ id: int, name: str, content_type: str, size: int, created_at: dateTime, url: str });
const dossierDetail = obj({
  dossier: dossierItem,
  request: ref('registration-request.json'),
  caen_codes: arrayOf(obj({ id: int, code: str, name: str, is_primary: int, revision: str, replaced_by: arrayOf(obj({ id: int, code: str, name: str })) })),
  payments: arrayOf(dossierPayment),
  files: arrayOf(dossierFile),
  audit: arrayOf(auditEntry),
});

const idParams = { type: 'object', required: ['id'], properties: { id: dbId } } as const;
type IdParams = { Params: { id: number } };
const dateBody = { type: 'object', properties: { date: { type: ['string', 'null'], maxLength: 10 } }, additionalProperties: false } as const;

/** A POST without a body is an empty object. */
async function emptyBody(request: FastifyRequest): Promise<void> {
  request.body ??= {};
}

const actorOf = (request: FastifyRequest): Actor => ({ staffUserId: request.staff!.id });
const fileUrl = (dossier: number, file: number) => `/api/staff/dossiers/${dossier}/files/${file}`;

function applicantName(lastName: string | null, firstName: string | null): string | null {
  const name = [lastName, firstName].filter((p) => typeof p === 'string' && p.trim()).join(' ');
  return name || null;
}

/** The position (1-based) of a step in its flow file, or null when the flow has no such step any more. */
function stepNumber(app: FastifyInstance, registrationType: number, stepId: string): number | null {
  const flow = app.flows.byType[registrationType as 1 | 2];
  const index = flow ? flow.steps.findIndex((s) => s.id === stepId) : -1;
  return index < 0 ? null : index + 1;
}

function itemOf(app: FastifyInstance, row: Pick<DossierPageRow, 'id' | 'email' | 'lastName' | 'firstName' | 'cnp' | 'cui' | 'registrationType' | 'step' | 'paid' | 'status' | 'partner' | 'createdAt'>) {
  return {
    id: row.id,
    email: row.email,
    name: applicantName(row.lastName, row.firstName),
    cnp: row.cnp,
    cui: row.cui,
    registration_type: row.registrationType,
    flow: app.flows.byType[row.registrationType as 1 | 2]?.id ?? String(row.registrationType),
    step: stepNumber(app, row.registrationType, row.step),
    step_id: row.step,
    paid: row.paid,
    status: row.status,
    partner: row.partner,
    created_at: row.createdAt.toISOString(),
  };
}

async function findDossier(app: FastifyInstance, id: number) {
  const found = await dossierWithOwner(app.db, id);
  if (!found) throw new HttpError(404, DOSSIER_MESSAGES.notFound);
  return found;
}

/**
 * The operator console's API (issue 18), `/api/staff/…`, for staff of role `operator` (an editor:
 * 403; no staff session, an applicant's token: 401). Every change goes through the services the
 * ops API uses (server/registration/timeline.ts, server/staff/dossier-actions.ts) and writes its
 * audit entry in the same transaction. The contract: the response schemas below (/api/docs/json), README "For operators".
 */
export default (async (app) => {
  app.addHook('onRequest', app.staffOnly('operator'));

  app.get(
    '/staff/timeline-types',
    { schema: { response: replies(arrayOf(obj({ type: str, schema: anything })), 'Each timeline item type with its JSON Schema (the fields the console asks for)') } },
    async () => ({ message: '', payload: TIMELINE_TYPES.map((type) => ({ type, schema: TIMELINE_SCHEMAS[type] })) }),
  );

  app.get<{ Querystring: { search?: string; flow?: string; step?: string; paid?: boolean; status?: string; partner?: string; page: number; page_size: number } }>(
    '/staff/dossiers',
    {
      schema: {
        querystring: {
          type: 'object',
          properties: {
            search: { type: 'string', maxLength: 254 },
            flow: { type: 'string', maxLength: 100 },
            step: { type: 'string', maxLength: 200 },
            paid: { type: 'boolean' },
            status: { type: 'string', maxLength: 50 },
            partner: { type: 'string', maxLength: 100 },
            page: { type: 'integer', minimum: 1, maximum: 100000, default: 1 },
            page_size: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
          },
        },
        response: replies(obj({ items: arrayOf(dossierItem), total: int, page: int, page_size: int }), 'A page of dossiers, newest first'),
      },
    },
    async (request) => {
      const q = request.query;
      let registrationType: number | undefined;
      if (q.flow) {
        const flow = app.flows.flows.find((f) => f.id === q.flow);
        if (!flow) throw new FieldValidationError({ flow: [DOSSIER_MESSAGES.unknownFlow] });
        registrationType = flow.registrationType;
      }
      const { rows, total } = await dossierPage(app.db, {
        search: q.search,
        registrationType,
        step: q.step || undefined,
        paid: q.paid,
        status: q.status || undefined,
        partner: q.partner || undefined,
        page: q.page,
        pageSize: q.page_size,
      });
      // A search names a person: the search is recorded (issue 32), not its results.
      if (q.search?.trim()) await recordAudit(app.db, { staffUserId: request.staff!.id, action: READ_ACTIONS.search, after: { search: auditedSearchTerm(q.search) } });
      return { message: '', payload: { items: rows.map((row) => itemOf(app, row)), total, page: q.page, page_size: q.page_size } };
    },
  );

  app.get<IdParams>('/staff/dossiers/:id', { schema: { params: idParams, response: replies(dossierDetail, 'Everything about one dossier') } }, async (request) => {
    const { request: row, user, partner } = await findDossier(app, request.params.id);
    const flow = app.flows.byType[row.registrationType as 1 | 2];
    const serialized = await serializeRequest(app.db, row, partner, resolveFlow(flow, flowContext(row, partner)));
    const fileRows = await applicantFiles(app.db, user.id);
    const audit = await auditEntries(app.db, { requestId: row.id });
    await recordAudit(app.db, { staffUserId: request.staff!.id, action: READ_ACTIONS.dossier, requestId: row.id });
    return {
      message: '',
      payload: {
        dossier: itemOf(app, {
          id: row.id,
          email: user.email,
          lastName: (row.profile.last_name as string | undefined) ?? null,
          firstName: (row.profile.first_name as string | undefined) ?? null,
          cnp: (row.profile.personal_code as string | undefined) ?? null,
          cui: (row.formData.fiscal_code as string | undefined) ?? null,
          registrationType: row.registrationType,
          step: row.step,
          paid: row.paid,
          status: row.status,
          partner: partner.slug,
          createdAt: row.createdAt,
        }),
        request: serialized,
        caen_codes: await codesOf(app.db, row.formData),
        payments: await dossierPayments(app.db, row.id),
        files: fileRows.map((f) => ({ id: f.id, name: f.name, content_type: f.contentType, size: f.size, created_at: f.createdAt.toISOString(), url: fileUrl(row.id, f.id) })),
        audit,
      },
    };
  });

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
      const { request: row, user } = await findDossier(app, request.params.id);
      const file = (await applicantFiles(app.db, user.id)).find((f) => f.id === request.params.fileId);
      const data = file ? await app.storage.get(file.storageKey) : null;
      if (!file || !data) throw new HttpError(404, DOSSIER_MESSAGES.fileNotFound);
      const kind = await fileKindOf(app.db, file.id, signatureFileIdOf(row.formData));
      await recordAudit(app.db, { staffUserId: request.staff!.id, action: READ_ACTIONS.file, requestId: row.id, after: { kind, id: file.id } });
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
      schema: {
        params: idParams,
        // The item's own JSON Schema (GET /staff/timeline-types) checks the rest.
        body: {
          type: 'object',
          required: ['type'],
          properties: { type: { type: 'string', maxLength: 50 }, date: { type: ['string', 'null'], maxLength: 10 } },
          additionalProperties: true,
        },
        response: replies(obj({ item: ref('timeline-item.json'), timeline: arrayOf(ref('timeline-item.json')) }), 'The item added and the whole timeline (201)'),
      },
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
      const uploads = Object.entries(request.body)
        .filter((entry): entry is [string, UploadedFile] => isUploadedFile(entry[1]))
        .map(([key, file]) => ({ key: key.replace(/\[(\d+)\]$/, '.$1'), index: Number(/\[(\d+)\]$/.exec(key)?.[1] ?? 0), file }))
        .sort((a, b) => a.index - b.index);
      const documents = await attachTradeRegisterDocuments(app, row, uploads, actorOf(request));
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
    {
      schema: {
        params: idParams,
        body: { type: 'object', required: ['message'], properties: { message: { type: 'string', minLength: 1, maxLength: 2000, pattern: '\\S' } }, additionalProperties: false },
        response: replies(obj({ to: str, subject: str }), 'The mail queued to the applicant (201)'),
      },
    },
    async (request, reply) => {
      const { request: row, user } = await findDossier(app, request.params.id);
      const mail = await askForMissingDocuments(app, row, user.email, request.body.message, actorOf(request));
      return reply.code(201).send({ message: DOSSIER_MESSAGES.mailQueued, payload: mail });
    },
  );

  app.get<IdParams>('/staff/dossiers/:id/audit', { schema: { params: idParams, response: replies(arrayOf(auditEntry), 'The dossier\'s audit entries, newest first') } }, async (request) => {
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
