/**
 * What the operator command prints: dossiers, their timeline, payments and documents, an erasure's
 * kept records, the retention job's lines. The answers' shapes are the operator API's own, from the
 * generated API types (src/core/api-contract.ts).
 */
import type { Answer } from '../../src/core/api-contract';

export type DossierSummary = Answer<'listOpsDossiers'>[number];
type DossierAnswer = Answer<'getOpsDossier'>;
/** A dossier as `GET /api/ops/dossiers/:dossier` answers it; older servers answer no payments and no signed documents. */
export type Dossier = Omit<DossierAnswer, 'payments' | 'signed_documents'> & Partial<Pick<DossierAnswer, 'payments' | 'signed_documents'>>;
export type DossierPayment = DossierAnswer['payments'][number];
export type TimelineItem = Dossier['timeline'][number];
export type RetentionReport = Answer<'runOpsRetention'>;

export function describePayment(p: DossierPayment): string {
  return [
    p.id,
    p.provider,
    p.status,
    `${p.amount} ${p.currency}`,
    ...(p.paid_at ? [`paid ${p.paid_at.slice(0, 10)}`] : []),
    ...(p.subscription_id ? [`subscription=${p.subscription_id}`] : []),
    ...(p.schedule_id ? [`schedule=${p.schedule_id}`] : []),
  ].join('  ');
}

/** Rows as aligned columns. */
export function table(header: string[], rows: string[][]): string[] {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i])).join('  ').trimEnd();
  return [line(header), ...rows.map(line)];
}

export function describeItem(item: TimelineItem): string {
  const { id, type, date, ...fields } = item;
  const rest = Object.entries(fields).map(([k, v]) => `${k}=${v === null ? '-' : typeof v === 'string' && /\s/.test(v) ? JSON.stringify(v) : String(v)}`);
  return [`#${id}`, date, type, ...rest].join('  ');
}

export function dossierLines(d: Dossier): string[] {
  return [
    `Dossier ${d.id}  ${d.email}${d.name ? `  (${d.name})` : ''}`,
    `  type ${d.registration_type}, step ${d.step}, status ${d.status}, ${d.paid ? 'paid' : 'not paid'}, created ${d.created_at.slice(0, 10)}`,
    `  timeline (${d.timeline.length}):`,
    ...(d.timeline.length ? d.timeline.map((item) => `    ${describeItem(item)}`) : ['    (none)']),
    ...(d.payments ? [`  payments (${d.payments.length}):`, ...(d.payments.length ? d.payments.map((p) => `    ${describePayment(p)}`) : ['    (none)'])] : []),
    `  trade register documents (${d.trade_register_documents.length}):`,
    ...(d.trade_register_documents.length ? d.trade_register_documents.map((doc) => `    #${doc.id}  ${doc.name}`) : ['    (none)']),
    `  signed documents (${d.signed_documents?.length ?? 0}):`,
    ...(d.signed_documents?.length ? d.signed_documents.map((doc) => `    #${doc.id}  ${doc.name}  (${doc.kind}, ${doc.size} bytes)`) : ['    (none)']),
  ];
}

/** What an erasure keeps, in the operator's words. */
export const KEPT_NAMES: Record<string, string> = {
  payment: 'payment records (accounting law)',
  contract: 'signed legal-assistance contract',
  trade_register: 'dossier filed with the trade register (kept there, not by us)',
};

/** What each line's action did, and (dry run) would do. */
const RETENTION_ACTIONS: Record<string, [string, string]> = {
  warn: ['warning mailed', 'warning would be mailed'],
  erase: ['account erased', 'account would be erased'],
  id_media: ['ID photos deleted', 'ID photos would be deleted'],
  lost: ['reduced to the e-mail', 'would be reduced to the e-mail'],
  retained_record: ['kept record deleted', 'kept record would be deleted'],
};

/** One line per application: e-mail, what goes, why (and what an erasure keeps apart); then the counts. */
export function retentionLines(report: RetentionReport): string[] {
  const lines = [`Retention as of ${report.as_of}${report.dry_run ? ' (dry run: nothing was changed)' : ''}:`];
  if (!report.lines.length) lines.push('  nothing is past its retention period.');
  for (const l of report.lines) {
    const action = RETENTION_ACTIONS[l.action]?.[report.dry_run ? 1 : 0] ?? l.action;
    const goes = l.goes.length ? ` — goes: ${l.goes.join('; ')}` : '';
    const kept = l.kept.length ? ` — kept: ${l.kept.map((k) => `${KEPT_NAMES[k.kind] ?? k.kind}${k.keep_until ? ` until ${k.keep_until}` : ''}`).join(', ')}` : '';
    lines.push(`  ${l.email}  [${action}]${goes}${kept} — why: ${l.why}${l.failed ? '  (FAILED: see the server log; the next run tries again)' : ''}`);
  }
  const c = report.counts;
  lines.push(
    `${report.dry_run ? 'Would be' : 'Done'}: ${c.warned} warned, ${c.erased} erased, ${c.id_media} ID-photo sets deleted, ${c.lost} lost applications reduced, ${c.retained_records} kept records deleted, ${c.mails_deleted} old mails deleted, ${c.files_deleted} stored files deleted${c.failed ? `, ${c.failed} FAILED` : ''}${report.stopped ? ' (stopped before the end)' : ''}.`,
  );
  return lines;
}
