import type { Db } from '../db';
import { auditLog } from '../db/schema';

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
