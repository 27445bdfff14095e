import { and, asc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import {
  TIMELINE_FIELDS,
  TIMELINE_TYPES,
  isIsoDate,
  isTimelineType,
  todayInRomania,
  type BillingTimelineType,
  type TimelineItem,
  type TimelineType,
} from '../../src/core/timeline';
import type { FieldErrors } from '../../src/core/api-types';
import type { Db } from '../db';
import { files, requestDocuments, timelineItems } from '../db/schema';
import { deleteFiles, saveFile } from '../files/files';
import { FieldValidationError, HttpError } from '../lib/http-errors';
import { detectDocumentType } from '../lib/image-type';
import type { UploadedFile } from '../lib/multipart';
import type { RequestRow } from './model';
import { setRequestStatus } from './store';
import { recordAudit, type Actor } from '../staff/audit';

/**
 * The dossier's status timeline (spec 001 §2 item 11, §3 "Timeline item types", §4 "Timeline
 * states") and the trade register's documents (§7 `GET /api/registration/download/tradeRegisterDocuments`).
 * Operators write both through the ops API (server/routes/ops.ts, `npm run ops`); the applicant
 * reads them in `status_timeline` and `media.trade_register_documents` of the request.
 */

export { TIMELINE_TYPES, todayInRomania, type TimelineItem, type TimelineType };

export const TIMELINE_MESSAGES = {
  unknownType: `Tipul trebuie să fie unul dintre: ${TIMELINE_TYPES.join(', ')}.`,
  required: 'Câmpul este obligatoriu.',
  boolean: 'Valoarea trebuie să fie true sau false.',
  date: 'Data trebuie să fie o zi din calendar, în formatul AAAA-LL-ZZ.',
  text: 'Denumirea este obligatorie (cel mult 200 de caractere).',
  notOfType: (type: string) => `Câmpul nu aparține tipului „${type}”.`,
  invalid: 'Datele elementului de status nu sunt valide.',
  alreadyFinalized: 'Dosarul este deja finalizat.',
  alreadyRejected: 'Dosarul este deja respins.',
  notNewPfa: 'Statusul și documentele de la Registrul Comerțului există doar pentru dosarele de înființare PFA (tipul 2).',
  noFiles: 'Alege cel puțin un fișier.',
  emptyFile: 'Fișierul este gol.',
} as const;

/** A timeline item's own JSON Schema: `type`, `date` and exactly the fields of spec 001 §3. */
export function timelineSchema(type: TimelineType) {
  const fields = TIMELINE_FIELDS[type];
  const properties: Record<string, object> = {
    type: { const: type },
    date: { type: 'string', format: 'date' },
  };
  for (const [name, field] of Object.entries(fields)) {
    const extra = field.default !== undefined ? { default: field.default } : {};
    if (field.kind === 'boolean') properties[name] = { type: 'boolean', ...extra };
    else if (field.kind === 'date') properties[name] = { type: ['string', 'null'], format: 'date', ...extra };
    else properties[name] = { type: 'string', minLength: 1, maxLength: 200, pattern: '\\S', ...extra };
  }
  return {
    $id: `timeline-${type}.json`,
    type: 'object',
    required: ['type', 'date', ...Object.entries(fields).filter(([, f]) => f.required).map(([name]) => name)],
    additionalProperties: false,
    properties,
  } as const;
}

/** One JSON Schema per item type (what operators send is checked against it). */
export const TIMELINE_SCHEMAS = Object.fromEntries(TIMELINE_TYPES.map((type) => [type, timelineSchema(type)])) as Record<
  TimelineType,
  ReturnType<typeof timelineSchema>
>;

// Strict: no type coercion (an operator's "yes" is not a boolean); defaults fill the optional fields.
const ajv = new Ajv({ allErrors: true, strict: false, useDefaults: true, coerceTypes: false });
ajv.addFormat('date', { type: 'string', validate: (value: string) => isIsoDate(value) });
const validators = Object.fromEntries(TIMELINE_TYPES.map((type) => [type, ajv.compile(TIMELINE_SCHEMAS[type])])) as Record<
  TimelineType,
  ValidateFunction
>;

function fieldOf(issue: ErrorObject): string {
  if (issue.keyword === 'required') return String(issue.params.missingProperty);
  if (issue.keyword === 'additionalProperties') return String(issue.params.additionalProperty);
  return issue.instancePath.replace(/^\//, '').replace(/\//g, '.') || '_';
}

function messageOf(type: TimelineType, field: string, issue: ErrorObject): string {
  if (issue.keyword === 'required') return TIMELINE_MESSAGES.required;
  if (issue.keyword === 'additionalProperties') return TIMELINE_MESSAGES.notOfType(type);
  const kind = field === 'date' ? 'date' : TIMELINE_FIELDS[type][field]?.kind;
  if (kind === 'boolean') return TIMELINE_MESSAGES.boolean;
  if (kind === 'date') return TIMELINE_MESSAGES.date;
  return TIMELINE_MESSAGES.text;
}


export interface ValidTimelineInput {
  type: TimelineType;
  date: string;
  /** The type's fields (every one of them, defaults filled in). */
  data: Record<string, unknown>;
}

/**
 * Checks what an operator sent (`{ type, date?, ...fields }`) against the type's JSON Schema; a
 * missing date is today. Throws a 422 with Romanian messages per field; nothing is written.
 */
export function validateTimelineInput(input: Record<string, unknown>, today = todayInRomania()): ValidTimelineInput {
  const type = input.type;
  if (!isTimelineType(type)) throw new FieldValidationError({ type: [TIMELINE_MESSAGES.unknownType] }, TIMELINE_MESSAGES.invalid);
  const candidate: Record<string, unknown> = structuredClone(input);
  if (candidate.date === undefined || candidate.date === null) candidate.date = today;
  const validate = validators[type];
  if (!validate(candidate)) {
    const errors: FieldErrors = {};
    for (const issue of validate.errors ?? []) {
      const field = fieldOf(issue);
      const message = messageOf(type, field, issue);
      const list = (errors[field] ??= []);
      if (!list.includes(message)) list.push(message);
    }
    throw new FieldValidationError(errors, TIMELINE_MESSAGES.invalid);
  }
  const { type: _type, date, ...data } = candidate;
  void _type;
  for (const [name, field] of Object.entries(TIMELINE_FIELDS[type])) {
    if (field.kind === 'text' && typeof data[name] === 'string') data[name] = (data[name] as string).trim();
  }
  return { type, date: date as string, data };
}

/** The request's timeline as `status_timeline` answers it: `[{ id, type, date, ...data }]`, by date then id. */
export async function timelineOf(db: Db, requestId: number): Promise<TimelineItem[]> {
  const rows = await db
    .select()
    .from(timelineItems)
    .where(eq(timelineItems.requestId, requestId))
    .orderBy(asc(timelineItems.date), asc(timelineItems.id));
  return rows.map(timelineItemOf);
}

/** One stored timeline item as `status_timeline` answers it. */
export function timelineItemOf(row: { id: number; type: string; date: string; data: Record<string, unknown> }): TimelineItem {
  const { id: _id, type: _type, date: _date, ...data } = row.data;
  void _id;
  void _type;
  void _date;
  // JSONB keeps its own key order: answer the fields in the order of spec 001 §3.
  const known = isTimelineType(row.type) ? Object.keys(TIMELINE_FIELDS[row.type]).filter((k) => k in data) : [];
  const ordered = Object.fromEntries([...known, ...Object.keys(data).filter((k) => !known.includes(k))].map((k) => [k, data[k]]));
  return { id: row.id, type: row.type, date: row.date, ...ordered } as TimelineItem;
}

/** The trade register's documents of a request, oldest first, with what the zip needs. */
export async function tradeRegisterFiles(db: Db, request: Pick<RequestRow, 'id' | 'userId'>) {
  return db
    .select({ id: files.id, name: files.originalName, storageKey: files.storageKey, createdAt: files.createdAt, size: files.size })
    .from(requestDocuments)
    .innerJoin(files, eq(files.id, requestDocuments.fileId))
    // The file must also be the applicant's: a document is never served to anyone else.
    .where(and(eq(requestDocuments.requestId, request.id), eq(requestDocuments.kind, 'trade_register'), eq(files.userId, request.userId)))
    .orderBy(asc(requestDocuments.id));
}

/** `media.trade_register_documents` of the serialized request: `[{ id, name }]`. */
export async function tradeRegisterDocumentsOf(db: Db, request: Pick<RequestRow, 'id' | 'userId'>) {
  return (await tradeRegisterFiles(db, request)).map(({ id, name }) => ({ id, name }));
}

/**
 * Names for the zip's entries: the files' own names, a repeated one (ignoring case, as Windows
 * does) numbered `name (2).pdf`, `name (3).pdf`, ….
 */
export function uniqueEntryNames(names: string[]): string[] {
  const taken = new Set<string>();
  return names.map((raw) => {
    const name = raw === '' || raw === '.' || raw === '..' ? 'document' : raw;
    const dot = name.lastIndexOf('.');
    const [stem, ext] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
    let candidate = name;
    for (let n = 2; taken.has(candidate.toLowerCase()); n++) candidate = `${stem} (${n})${ext}`;
    taken.add(candidate.toLowerCase());
    return candidate;
  });
}

function assertNewPfa(request: RequestRow): void {
  if (request.registrationType !== 2) throw new HttpError(409, TIMELINE_MESSAGES.notNewPfa);
}

/** The item types that also set the request's status (written together, or neither). */
const STATUS_OF_TYPE: Partial<Record<TimelineType, string>> = { finalized: 'finalized', rejected: 'rejected' };

/**
 * Adds an item to the request's timeline, with its audit entry (`timeline.add`, by `actor`) in the
 * same transaction. A `finalized` or `rejected` item also sets the request's status to it; a
 * dossier that already is finalized answers 409 (and a rejected one to a second rejection), nothing written.
 */
export async function addTimelineItem(app: FastifyInstance, request: RequestRow, input: Record<string, unknown>, actor: Actor): Promise<TimelineItem> {
  assertNewPfa(request);
  const item = validateTimelineInput(input);
  const status = STATUS_OF_TYPE[item.type];
  if (status && request.status === 'finalized') throw new HttpError(409, TIMELINE_MESSAGES.alreadyFinalized);
  if (status === 'rejected' && request.status === 'rejected') throw new HttpError(409, TIMELINE_MESSAGES.alreadyRejected);
  const write = async (db: Pick<FastifyInstance['db'], 'insert'>) => {
    const [row] = await db
      .insert(timelineItems)
      .values({ requestId: request.id, type: item.type, date: item.date, data: item.data })
      .returning({ id: timelineItems.id });
    const added = { id: row.id, type: item.type, date: item.date, ...item.data } as TimelineItem;
    await recordAudit(db, {
      staffUserId: actor.staffUserId,
      action: status ? (item.type === 'finalized' ? 'dossier.finalize' : 'dossier.reject') : 'timeline.add',
      requestId: request.id,
      before: status ? { status: request.status } : null,
      after: status ? { status, item: added } : { item: added },
    });
    return added;
  };
  if (status) return setRequestStatus(app.db, request, status, write);
  return app.db.transaction((tx) => write(tx));
}

/**
 * Adds an item the server writes itself from the payment provider (`payment_received`,
 * `payment_failed`, `subscription_cancelled`), with `db`: the transaction that recorded the
 * provider's event, so a replayed event (already recorded) adds nothing.
 */
export async function addBillingTimelineItem(
  db: Pick<Db, 'insert'>,
  requestId: number,
  item: { type: BillingTimelineType; date: string; data: Record<string, unknown> },
): Promise<number> {
  const [row] = await db
    .insert(timelineItems)
    .values({ requestId, type: item.type, date: item.date, data: item.data })
    .returning({ id: timelineItems.id });
  return row.id;
}

export const TRADE_REGISTER_MAX_BYTES = 20 * 1024 * 1024;
export const TRADE_REGISTER_MAX_FILES = 20;

/**
 * Attaches the trade register's documents to the request: kept as the applicant's files (kind
 * `trade_register`), any type (the registry's signed PDFs, XML, images). Every file is checked
 * first; one bad file stores nothing.
 */
export async function attachTradeRegisterDocuments(app: FastifyInstance, request: RequestRow, uploads: { key: string; file: UploadedFile }[], actor: Actor) {
  assertNewPfa(request);
  if (!uploads.length) throw new FieldValidationError({ files: [TIMELINE_MESSAGES.noFiles] }, TIMELINE_MESSAGES.noFiles);
  const errors: FieldErrors = {};
  for (const { key, file } of uploads) if (file.data.length === 0) errors[key] = [TIMELINE_MESSAGES.emptyFile];
  if (Object.keys(errors).length) throw new FieldValidationError(errors, TIMELINE_MESSAGES.emptyFile);

  const saved: { id: number; name: string }[] = [];
  try {
    for (const { key, file } of uploads) {
      const contentType = detectDocumentType(file.data)?.contentType ?? 'application/octet-stream';
      const stored = await saveFile(app, request.userId, { data: file.data, originalName: file.filename || 'document', contentType, field: key });
      saved.push({ id: stored.id, name: stored.originalName });
    }
    // The documents become the dossier's with their audit entry, together.
    await app.db.transaction(async (tx) => {
      await tx.insert(requestDocuments).values(saved.map(({ id }) => ({ requestId: request.id, fileId: id, kind: 'trade_register' as const })));
      await recordAudit(tx, { staffUserId: actor.staffUserId, action: 'documents.attach', requestId: request.id, after: { documents: saved } });
    });
  } catch (error) {
    await deleteFiles(
      app,
      saved.map(({ id }) => id),
    );
    throw error;
  }
  return tradeRegisterDocumentsOf(app.db, request);
}
