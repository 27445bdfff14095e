/**
 * What the audit log records (server/staff/audit.ts, issue 18): one name per kind of staff action or
 * read, shown to operators by its words in the console (`dossier.auditActions` of locales/<lng>/console.json).
 */
export const AUDIT_ACTIONS = [
  'dossier.read',
  'dossier.search',
  'file.read',
  'timeline.add',
  'dossier.finalize',
  'dossier.reject',
  'documents.attach',
  'mail.missing_documents',
  'staff.add',
  'account.erased',
  'retention.run',
] as const;

export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** A payment's states (server/db/schema/payments.ts `payments.status`), shown by their words (`dossier.paymentStatuses`). */
export const PAYMENT_STATUSES = ['open', 'paid', 'cancelled', 'failed'] as const;

export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

/** Who took a payment (`payments.provider`): the built-in simulator or Stripe (`dossier.paymentProviders`). */
export const PAYMENT_PROVIDERS = ['builtin', 'stripe'] as const;
