import { AsyncLocalStorage } from 'node:async_hooks';
import { asc, desc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../db';
import { auditLog, identityUploads, requestDocuments, staffUsers } from '../db/schema';
import { requestIdsOfUser } from '../registration/store';
import type { AuditAction } from '../../src/core/audit';

/** Who acts: a staff member (their id), or the shared OPS_TOKEN (`npm run ops`: null) with the operator's name (`X-Ops-Actor`). */
export interface Actor {
  staffUserId: number | null;
  actor?: string | null;
}

/**
 * The operator named by `X-Ops-Actor` for the ops API's request under way (server/routes/ops.ts
 * runs each handler in `withOpsActor`): every entry written meanwhile with no staff member and no
 * name of its own (the services' writes take only `staffUserId`) is signed with it.
 */
const opsActor = new AsyncLocalStorage<string>();

export function withOpsActor<T>(name: string, run: () => Promise<T>): Promise<T> {
  return opsActor.run(name, run);
}

/** `X-Ops-Actor`: trimmed, 1–100 printable characters (a header is Latin-1: ASCII and Latin-1 letters, no control characters); null otherwise. */
export function opsActorName(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const name = value.trim();
  return name.length >= 1 && name.length <= 100 && /^[\x20-\x7e\xa0-\xff]+$/.test(name) ? name : null;
}

/** The OPS_TOKEN's scripts. */
export const OPS_ACTOR: Actor = { staffUserId: null };

/** What an audit entry records (issue 18): who (null: the shared OPS_TOKEN), what, on which dossier, the state before and after. */
export interface AuditEntry {
  staffUserId: number | null;
  /** The operator's name when the OPS_TOKEN acts; default: the one of `withOpsActor`. */
  actor?: string | null;
  action: AuditAction;
  requestId?: number | null;
  before?: unknown;
  after?: unknown;
}

/** Writes one audit entry; pass the transaction of the change, so both are written or neither. */
export async function recordAudit(db: Pick<Db, 'insert'>, entry: AuditEntry): Promise<void> {
  await db.insert(auditLog).values({
    staffUserId: entry.staffUserId,
    actor: entry.actor ?? (entry.staffUserId === null ? (opsActor.getStore() ?? null) : null),
    action: entry.action,
    requestId: entry.requestId ?? null,
    before: entry.before ?? null,
    after: entry.after ?? null,
  });
}

/**
 * An audit entry as the staff API answers it (`staff_email`: null for the OPS_TOKEN's scripts or a
 * deleted account; `actor`: the operator the OPS_TOKEN's caller named, null before issue 32).
 */
export interface AuditView {
  id: number;
  at: string;
  staff_user_id: number | null;
  staff_email: string | null;
  actor: string | null;
  action: string;
  request_id: number | null;
  before: unknown;
  after: unknown;
}

/** Audit entries, newest first: of one dossier, or all; at most `limit`. */
export async function auditEntries(db: Db, options: { requestId?: number; limit?: number } = {}): Promise<AuditView[]> {
  const rows = await db
    .select({ entry: auditLog, email: staffUsers.email })
    .from(auditLog)
    .leftJoin(staffUsers, eq(staffUsers.id, auditLog.staffUserId))
    .where(options.requestId === undefined ? undefined : eq(auditLog.requestId, options.requestId))
    .orderBy(desc(auditLog.at), desc(auditLog.id))
    .limit(options.limit ?? 10_000);
  return rows.map(({ entry, email }) => ({
    id: entry.id,
    at: entry.at.toISOString(),
    staff_user_id: entry.staffUserId,
    staff_email: email,
    actor: entry.actor,
    action: entry.action,
    request_id: entry.requestId,
    before: entry.before ?? null,
    after: entry.after ?? null,
  }));
}

/** One CSV field: quoted when it holds a delimiter, a quote or a line break (quotes doubled); a leading = + - @ is defused for spreadsheets. */
export function csvField(value: unknown): string {
  let text = value === null || value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",;\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export const AUDIT_CSV_HEADER = ['id', 'at', 'staff_user_id', 'staff_email', 'actor', 'action', 'request_id', 'before', 'after'] as const;

/** The entries as CSV (comma, CRLF), with a UTF-8 BOM so that Excel shows ă, â, î, ș, ț. */
export function auditCsv(entries: AuditView[]): string {
  const lines = [AUDIT_CSV_HEADER.join(','), ...entries.map((e) => AUDIT_CSV_HEADER.map((key) => csvField(e[key])).join(','))];
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}

/** A staff member's or operator's read of an applicant's data (issue 32): written after the read succeeded, never the data itself. */
export const READ_ACTIONS = { dossier: 'dossier.read', file: 'file.read', search: 'dossier.search' } as const satisfies Record<string, AuditAction>;

/** A search term as the audit keeps it: long digit runs (a CNP, a CUI, a phone number) are not kept. */
export function auditedSearchTerm(term: string): string {
  return term.trim().replace(/\d{5,}/g, (digits) => `[${digits.length} cifre]`);
}

/**
 * What a file of the applicant is, for the `file.read` entry: an identity photo (`identity:<context>`,
 * `identity:face` the selfie), a request document's kind (diploma, driver_license, trade_register,
 * legal_assistance_contract, power_of_attorney_request), `signature` or `file`.
 */
export async function fileKindOf(db: Db, fileId: number, signatureFileId: number | null = null): Promise<string> {
  if (signatureFileId === fileId) return 'signature';
  const [upload] = await db.select({ context: identityUploads.context }).from(identityUploads).where(eq(identityUploads.fileId, fileId)).limit(1);
  if (upload) return `identity:${upload.context}`;
  const [document] = await db.select({ kind: requestDocuments.kind }).from(requestDocuments).where(eq(requestDocuments.fileId, fileId)).limit(1);
  return document?.kind ?? 'file';
}

/** One entry of an applicant's access log: who (staff e-mail or the operator's name; null: unknown or deleted), what, when, on which request. */
export interface AccessLogEntry {
  at: string;
  who: string | null;
  action: string;
  request_id: number | null;
}

/**
 * Every audit entry about the user's requests (reads and changes by staff and operators), oldest
 * first, without the before/after payloads: what the applicant's data export shows (issue 32).
 */
export async function accessLogOf(db: Db, userId: number): Promise<AccessLogEntry[]> {
  const requestIds = requestIdsOfUser(db, userId);
  const rows = await db
    .select({ at: auditLog.at, actor: auditLog.actor, email: staffUsers.email, action: auditLog.action, requestId: auditLog.requestId })
    .from(auditLog)
    .leftJoin(staffUsers, eq(staffUsers.id, auditLog.staffUserId))
    .where(inArray(auditLog.requestId, requestIds))
    .orderBy(asc(auditLog.at), asc(auditLog.id));
  return rows.map((r) => ({ at: r.at.toISOString(), who: r.email ?? r.actor ?? null, action: r.action, request_id: r.requestId }));
}
