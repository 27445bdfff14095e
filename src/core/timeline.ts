/**
 * The dossier's status timeline (spec 001 §2 item 11, §3 "Timeline item types", §4 "Timeline
 * states"): what the server keeps and answers in `status_timeline`, what the status page shows and
 * what the operator command sends. Pure data: shared by the browser, the server and scripts/ops.ts.
 */

/** The six item types, in the order a dossier usually meets them. */
export const TIMELINE_TYPES = ['document_review', 'name_reservation', 'submitted', 'delayed', 'rejected', 'finalized'] as const;
export type TimelineType = (typeof TIMELINE_TYPES)[number];

/** A day, `YYYY-MM-DD`. */
export type IsoDate = string;

export interface DocumentReviewItem {
  type: 'document_review';
  isDataComplete: boolean;
  hasDiploma: boolean;
  shouldHaveDriverLicense: boolean;
  hasDriverLicense: boolean;
  shouldHaveCertificate: boolean;
  hasCertificate: boolean;
  shouldHaveAdditionalDocuments: boolean;
}

export interface NameReservationItem {
  type: 'name_reservation';
  hasNameReservation: boolean;
  pfa_name: string;
}

export interface DelayedItem {
  type: 'delayed';
  estimated_date: IsoDate | null;
  file_resubmission_date: IsoDate | null;
}

export interface RejectedItem {
  type: 'rejected';
}

export interface SubmittedItem {
  type: 'submitted';
  finalDossierSubmitted: boolean;
  estimated_date: IsoDate | null;
}

export interface FinalizedItem {
  type: 'finalized';
}

/**
 * Items the server writes itself from the payment provider (issue 17), never an operator: the
 * payment received (amount in lei, and the phases of the price: 130 for 3 months, then 72), an
 * invoice of the subscription that could not be paid, and the subscription ended.
 */
export const BILLING_TIMELINE_TYPES = ['payment_received', 'payment_failed', 'subscription_cancelled'] as const;
export type BillingTimelineType = (typeof BILLING_TIMELINE_TYPES)[number];

export interface PaymentReceivedItem {
  type: 'payment_received';
  amount: number;
  currency: string;
  /** The price's introductory phase, when it has one: `amount` for `intro_months`, then `then_amount`. */
  intro_months: number | null;
  then_amount: number | null;
  /** The payment it records (the receipt's reference). */
  payment_id: string;
}

export interface PaymentFailedItem {
  type: 'payment_failed';
  amount: number | null;
  currency: string | null;
  /** When the provider tries the card again, or null when it will not. */
  next_attempt_date: IsoDate | null;
  /** The provider's invoice and subscription. */
  invoice_id: string | null;
  subscription_id: string;
}

export interface SubscriptionCancelledItem {
  type: 'subscription_cancelled';
  subscription_id: string;
}

/** One entry of `status_timeline`: `{ id, type, date, ...fields of the type }`. */
export type TimelineItem = { id: number; date: IsoDate } & (
  | DocumentReviewItem
  | NameReservationItem
  | DelayedItem
  | RejectedItem
  | SubmittedItem
  | FinalizedItem
  | PaymentReceivedItem
  | PaymentFailedItem
  | SubscriptionCancelledItem
);

export type TimelineFieldKind = 'boolean' | 'date' | 'text';

export interface TimelineField {
  kind: TimelineFieldKind;
  /** An operator must give it; otherwise `default` is stored. */
  required: boolean;
  default?: boolean | null;
}

/**
 * The fields of each type besides `date` (spec 001 §3, names exactly as there), with their kind and
 * whether an operator must give them. Defaults: a document review found every document it does
 * not say is missing (`has…` true, `shouldHave…` false); an unknown date is null.
 */
export const TIMELINE_FIELDS: Record<TimelineType, Record<string, TimelineField>> = {
  document_review: {
    isDataComplete: { kind: 'boolean', required: true },
    hasDiploma: { kind: 'boolean', required: false, default: true },
    shouldHaveDriverLicense: { kind: 'boolean', required: false, default: false },
    hasDriverLicense: { kind: 'boolean', required: false, default: true },
    shouldHaveCertificate: { kind: 'boolean', required: false, default: false },
    hasCertificate: { kind: 'boolean', required: false, default: true },
    shouldHaveAdditionalDocuments: { kind: 'boolean', required: false, default: false },
  },
  name_reservation: {
    hasNameReservation: { kind: 'boolean', required: true },
    pfa_name: { kind: 'text', required: true },
  },
  delayed: {
    estimated_date: { kind: 'date', required: false, default: null },
    file_resubmission_date: { kind: 'date', required: false, default: null },
  },
  rejected: {},
  submitted: {
    finalDossierSubmitted: { kind: 'boolean', required: true },
    estimated_date: { kind: 'date', required: false, default: null },
  },
  finalized: {},
};

export function isTimelineType(value: unknown): value is TimelineType {
  return typeof value === 'string' && (TIMELINE_TYPES as readonly string[]).includes(value);
}

export function isBillingTimelineType(value: unknown): value is BillingTimelineType {
  return typeof value === 'string' && (BILLING_TIMELINE_TYPES as readonly string[]).includes(value);
}

/** What a document review found missing (spec 001 §4 "document review (complete or incomplete)"). */
export type MissingDocument = 'diploma' | 'driverLicense' | 'certificate' | 'additionalDocuments';

export function missingDocuments(item: DocumentReviewItem): MissingDocument[] {
  const missing: MissingDocument[] = [];
  if (!item.hasDiploma) missing.push('diploma');
  if (item.shouldHaveDriverLicense && !item.hasDriverLicense) missing.push('driverLicense');
  if (item.shouldHaveCertificate && !item.hasCertificate) missing.push('certificate');
  if (item.shouldHaveAdditionalDocuments) missing.push('additionalDocuments');
  return missing;
}

/** A real calendar day written `YYYY-MM-DD` (2026-02-30 is not). */
export function isIsoDate(value: unknown): value is IsoDate {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const [y, m, d] = value.split('-').map(Number);
  const day = new Date(Date.UTC(y, m - 1, d));
  return day.getUTCFullYear() === y && day.getUTCMonth() === m - 1 && day.getUTCDate() === d;
}

/** Today in Romania, `YYYY-MM-DD`. */
export function todayInRomania(now = new Date()): IsoDate {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Bucharest', year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
}
