import { desc, eq } from 'drizzle-orm';
import type { Db } from '../db';
import { auditLog, staffUsers } from '../db/schema';

/** Who acts: a staff member (their id), or the shared OPS_TOKEN (`npm run ops`: null). */
export interface Actor {
  staffUserId: number | null;
}

/** The OPS_TOKEN's scripts. */
export const OPS_ACTOR: Actor = { staffUserId: null };

/** What an audit entry records (issue 18): who (null: the shared OPS_TOKEN), what, on which dossier, the state before and after. */
export interface AuditEntry {
  staffUserId: number | null;
  action: string;
  requestId?: number | null;
  before?: unknown;
  after?: unknown;
}

/** Writes one audit entry; pass the transaction of the change, so both are written or neither. */
export async function recordAudit(db: Pick<Db, 'insert'>, entry: AuditEntry): Promise<void> {
  await db.insert(auditLog).values({
    staffUserId: entry.staffUserId,
    action: entry.action,
    requestId: entry.requestId ?? null,
    before: entry.before ?? null,
    after: entry.after ?? null,
  });
}

/** An audit entry as the staff API answers it (`staff_email`: null for the OPS_TOKEN's scripts or a deleted account). */
export interface AuditView {
  id: number;
  at: string;
  staff_user_id: number | null;
  staff_email: string | null;
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

export const AUDIT_CSV_HEADER = ['id', 'at', 'staff_user_id', 'staff_email', 'action', 'request_id', 'before', 'after'] as const;

/** The entries as CSV (comma, CRLF), with a UTF-8 BOM so that Excel shows ă, â, î, ș, ț. */
export function auditCsv(entries: AuditView[]): string {
  const lines = [AUDIT_CSV_HEADER.join(','), ...entries.map((e) => AUDIT_CSV_HEADER.map((key) => csvField(e[key])).join(','))];
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}
