import { PASSWORD_MIN_LENGTH } from '../../src/core/registration';
import { arrayOf, bool, dateTime, int, nullInt, nullStr, num, obj, ref, str } from '../lib/api-schemas';
import { dbId } from '../lib/input-limits';
import { STAFF_ROLES } from '../staff/accounts';

/**
 * The schemas of the two APIs on dossiers: the operator API (server/routes/ops.ts, `npm run ops`)
 * and the operator console's (server/routes/staff-dossiers.ts). Their contract is these schemas
 * (/api/docs/json).
 */

const anything = {} as const;

// ---------------------------------------------------------------- shared

/** A checkout of the dossier (`dossierPayments` in server/payment/billing.ts), with Stripe's subscription and schedule when there are some. */
export const dossierPayment = obj({ id: str, provider: str, status: str, amount: num, currency: str, created_at: dateTime, paid_at: nullStr, subscription_id: nullStr, schedule_id: nullStr });

/** A timeline item: its type and day; the item's own JSON Schema (server/registration/timeline.ts, by type) checks the rest. */
export const timelineBody = {
  type: 'object',
  required: ['type'],
  properties: { type: { type: 'string', maxLength: 50 }, date: { type: ['string', 'null'], maxLength: 10 } },
  additionalProperties: true,
} as const;

/** Finalize and reject: the day, else today. */
export const dateBody = { type: 'object', properties: { date: { type: ['string', 'null'], maxLength: 10 } }, additionalProperties: false } as const;

/** The missing documents' mail: what the operator writes. */
export const missingDocumentsBody = {
  type: 'object',
  required: ['message'],
  properties: { message: { type: 'string', minLength: 1, maxLength: 2000, pattern: '\\S' } },
  additionalProperties: false,
} as const;

export const mailQueued = obj({ to: str, subject: str });

// ---------------------------------------------------------------- the operator API

/** A dossier in the ops list. */
export const opsDossierSummary = {
  id: int,
  email: str,
  name: nullStr,
  registration_type: { type: 'integer', enum: [1, 2] },
  step: str,
  status: str,
  paid: bool,
  created_at: dateTime,
  timeline_items: int,
} as const;
export const tradeRegisterDocument = obj({ id: int, name: str });
/** A signed PDF of the dossier (the contract, the power-of-attorney request). */
const signedDocument = obj({ id: int, kind: str, name: str, size: int });
/** A dossier with its timeline, payments, the trade register's documents and the signed PDFs (`dossierView` in server/ops/dossiers.ts). */
export const opsDossier = obj({
  ...opsDossierSummary,
  timeline: arrayOf(ref('timeline-item.json')),
  payments: arrayOf(dossierPayment),
  trade_register_documents: arrayOf(tradeRegisterDocument),
  signed_documents: arrayOf(signedDocument),
});

export const opsDossierParams = {
  type: 'object',
  required: ['dossier'],
  properties: { dossier: { type: 'string', minLength: 1, maxLength: 254 } },
} as const;

export const reencryptAnswer = obj({ checked: int, encrypted: int, rewrapped: int, current: int, missing: int, failed: int, skipped: bool, stopped: bool, key_id: str, duration_ms: int });

export const eraseBody = {
  type: 'object',
  required: ['email'],
  additionalProperties: false,
  properties: { email: { type: 'string', minLength: 3, maxLength: 254, pattern: '@' }, erase: { type: 'boolean', default: false } },
} as const;
export const eraseAnswer = obj({
  email: str,
  erased: bool,
  goes: arrayOf(str),
  kept: arrayOf(obj({ kind: str, count: int, keep_until: nullStr })),
  files_deleted: int,
});

export const staffBody = {
  type: 'object',
  required: ['email', 'password', 'role'],
  properties: {
    email: { type: 'string', format: 'email', maxLength: 254 },
    password: { type: 'string', minLength: PASSWORD_MIN_LENGTH, maxLength: 200 },
    role: { type: 'string', enum: [...STAFF_ROLES] },
  },
  additionalProperties: false,
} as const;

// ---------------------------------------------------------------- the operator console

/** A dossier in the console's list. */
export const consoleDossierItem = obj({
  id: int,
  email: str,
  name: nullStr,
  cnp: nullStr,
  cui: nullStr,
  registration_type: { type: 'integer', enum: [1, 2] },
  flow: str,
  step: nullInt,
  step_id: str,
  paid: bool,
  status: str,
  partner: str,
  created_at: dateTime,
});
export const auditEntry = obj({ id: int, at: dateTime, staff_user_id: nullInt, staff_email: nullStr, actor: nullStr, action: str, request_id: nullInt, before: anything, after: anything });
const dossierFile = obj({ id: int, name: str, content_type: str, size: int, created_at: dateTime, url: str });
/** Everything about one dossier (`dossierDetail` in server/staff/dossier-console.ts). */
export const consoleDossierDetail = obj({
  dossier: consoleDossierItem,
  request: ref('registration-request.json'),
  caen_codes: arrayOf(obj({ id: int, code: str, name: str, is_primary: int, revision: str, replaced_by: arrayOf(obj({ id: int, code: str, name: str })) })),
  payments: arrayOf(dossierPayment),
  files: arrayOf(dossierFile),
  audit: arrayOf(auditEntry),
});

export const consoleIdParams = { type: 'object', required: ['id'], properties: { id: dbId } } as const;

export const consoleListQuery = {
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
} as const;
