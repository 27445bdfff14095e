import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  boolean,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

/** Partners (unaffiliated, the credit partner `icredit`, the courier partner, ...). */
export const partners = pgTable('partners', {
  id: serial('id').primaryKey(),
  slug: text('slug').notNull().unique(),
  name: text('name').notNull(),
  isUnaffiliated: boolean('is_unaffiliated').notNull().default(false),
  /** Shown on the pricing step (spec 001 §2 item 8). */
  description: text('description'),
  /** Footnote under the price, where the spec gives one. */
  footnote: text('footnote'),
  sortOrder: integer('sort_order').notNull().default(0),
  isActive: boolean('is_active').notNull().default(true),
});

/** A partner's prices; `stripePriceId` is the payment provider's price id (spec 000 §3). */
export const partnerPrices = pgTable('partner_prices', {
  id: serial('id').primaryKey(),
  partnerId: integer('partner_id').notNull().references(() => partners.id),
  description: text('description').notNull(),
  stripePriceId: text('stripe_price_id').notNull().unique(),
  /** Amount in bani (1/100 RON). */
  amountBani: integer('amount_bani').notNull(),
  currency: text('currency').notNull().default('RON'),
  interval: text('interval').notNull().default('month'),
  sortOrder: integer('sort_order').notNull().default(0),
  /**
   * An introductory phase (the credit partner's 130 lei for 3 months, then 72): `amountBani` is
   * billed for `introMonths` intervals, then `thenAmountBani` (`thenStripePriceId`) every interval.
   * All three null: one amount throughout.
   */
  introMonths: integer('intro_months'),
  thenAmountBani: integer('then_amount_bani'),
  thenStripePriceId: text('then_stripe_price_id'),
});

export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    /** Stored lower-cased and trimmed. */
    email: text('email').notNull(),
    phone: text('phone').notNull(),
    passwordHash: text('password_hash').notNull(),
    registrationType: smallint('registration_type').notNull(),
    partnerId: integer('partner_id').notNull().references(() => partners.id),
    referralCode: text('referral_code'),
    marketingAccepted: boolean('marketing_accepted').notNull().default(false),
    emailVerifiedAt: timestamp('email_verified_at', { withTimezone: true }),
    dashboardRedirect: boolean('dashboard_redirect').notNull().default(false),
    stopFlow: boolean('stop_flow').notNull().default(false),
    /** Public id used in unsubscribe links; reveals nothing about the user. */
    frontendId: text('frontend_id').notNull().unique(),
    unsubscribedAt: timestamp('unsubscribed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('users_email_unique').on(t.email)],
);

/** Key/value facts about a user: tracked cookies, user-source entries, acknowledgements. */
export const userMeta = pgTable(
  'user_meta',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    metaKey: text('meta_key').notNull(),
    metaValue: text('meta_value').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('user_meta_user_idx').on(t.userId, t.metaKey)],
);

/**
 * Every secret handed to a browser or a mail: access tokens, single-use auto-login links,
 * e-mail verification and password reset tokens. Only the SHA-256 of the secret is stored.
 */
export const tokens = pgTable(
  'tokens',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose', { enum: ['access', 'auto_login', 'email_verify', 'password_reset'] }).notNull(),
    tokenHash: text('token_hash').notNull(),
    /** For access tokens: which application asked (`/auth?source=`), else null. */
    source: text('source'),
    /** For auto-login links: the named route to open. */
    redirect: text('redirect'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    usedAt: timestamp('used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    /** For access tokens: last request made with it (written at most once a minute); idle expiry counts from here. */
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('tokens_hash_unique').on(t.tokenHash), index('tokens_user_idx').on(t.userId, t.purpose)],
);

/**
 * Mail queue (and development outbox): a mail is written here in the transaction of what caused it
 * and sent by the worker of server/mail/mailer.ts when SMTP is configured; without SMTP this is where
 * mails are read (/dev/outbox).
 */
export const outbox = pgTable(
  'outbox',
  {
    id: serial('id').primaryKey(),
    to: text('to').notNull(),
    subject: text('subject').notNull(),
    text: text('text').notNull(),
    html: text('html').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    /** Sending attempts made (each claim counts one). */
    attempts: integer('attempts').notNull().default(0),
    /** When a worker may (next) claim it: now for a new mail; a lease while being sent; the backoff after a failure. Null: given up. */
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).defaultNow(),
    /** The last sending error (SMTP answer or connection error), for the operator. */
    lastError: text('last_error'),
  },
  (t) => [index('outbox_pending_idx').on(t.nextAttemptAt).where(sql`${t.sentAt} is null`)],
);

export const counties = pgTable('counties', {
  id: integer('id').primaryKey(),
  name: text('name').notNull(),
  /** Two-letter vehicle code (AB, B, CJ, ...). */
  code: text('code').notNull().unique(),
  /** SIRUTA code of the county, when known. */
  siruta: integer('siruta'),
});

/**
 * Every locality of the SIRUTA register (server/db/seed/localities.json, `npm run import:siruta`):
 * municipalities, towns, communes and the sectors of București (`parent_id` null), and the villages
 * and component localities inside them (`kind` sat, `parent_id` their municipality, town or commune).
 * Ids are ours and stable (addresses point at them); `siruta` is the official code.
 */
export const cities = pgTable(
  'cities',
  {
    id: serial('id').primaryKey(),
    countyId: integer('county_id').notNull().references(() => counties.id),
    name: text('name').notNull(),
    /** municipiu, oras, comuna, sat, sector */
    kind: text('kind').notNull(),
    siruta: integer('siruta'),
    /** A village's municipality, town or commune; null for those themselves and the sectors. */
    parentId: integer('parent_id').references((): AnyPgColumn => cities.id),
    /** How the locality is written in an address: "Alba Iulia", "Rogoz, comuna Albac" (server/lib/places.ts). */
    label: text('label').notNull().default(''),
    /** SIRUTA's postal code (six digits) where the locality has a single one, else null. */
    postalCode: text('postal_code'),
    /** The label without diacritics, lower-case: what search matches against (a village's own name and its commune's). */
    searchName: text('search_name').notNull(),
  },
  (t) => [
    uniqueIndex('cities_siruta_unique').on(t.siruta),
    index('cities_county_search_idx').on(t.countyId, t.searchName),
    index('cities_parent_idx').on(t.parentId),
  ],
);

export const seedRuns = pgTable('seed_runs', {
  name: text('name').primaryKey(),
  checksum: text('checksum').notNull(),
  ranAt: timestamp('ran_at', { withTimezone: true }).notNull().default(sql`now()`),
});

/** Activities of the new-company wizard (spec 001 §2 item 1); `code` drives the flow's variants. */
export const activities = pgTable('activities', {
  id: integer('id').primaryKey(),
  code: text('code').notNull().unique(),
  name: text('name').notNull(),
  isPrimary: boolean('is_primary').notNull().default(false),
  isActive: boolean('is_active').notNull().default(true),
  sortOrder: integer('sort_order').notNull().default(0),
});

/** Matrimonial regimes (spec 001 §3 "Marital status option"). */
export const maritalStatuses = pgTable('marital_statuses', {
  id: integer('id').primaryKey(),
  code: text('code').notNull().unique(),
  displayName: text('display_name').notNull(),
  displayDescription: text('display_description').notNull(),
  isDefault: boolean('is_default').notNull().default(false),
  sortOrder: integer('sort_order').notNull().default(0),
});

/** Why a request left the flow (spec 001 §3 "Lost reason"); the questionnaire lists some of them. */
export const lostReasons = pgTable('lost_reasons', {
  identifier: text('identifier').primaryKey(),
  feText: text('fe_text').notNull(),
  feSubtext: text('fe_subtext'),
  /** Registration types whose questionnaire shows the reason; empty: never shown as a checkbox. */
  questionnaireTypes: integer('questionnaire_types').array().notNull().default(sql`'{}'::integer[]`),
  sortOrder: integer('sort_order').notNull().default(0),
});

/**
 * A user's wizard request (spec 000 §3 "Company request", 001 §3). `step` is the server's current
 * step identifier; `version` grows with every change so concurrent submits cannot both win.
 */
export const registrationRequests = pgTable(
  'registration_requests',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    registrationType: smallint('registration_type').notNull(),
    step: text('step').notNull(),
    /** in_progress, lost, submitted, paid, finalized */
    status: text('status').notNull().default('in_progress'),
    lostReason: text('lost_reason'),
    formData: jsonb('form_data').$type<Record<string, unknown>>().notNull().default({}),
    profile: jsonb('profile').$type<Record<string, unknown>>().notNull().default({}),
    paid: boolean('paid').notNull().default(false),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    version: integer('version').notNull().default(1),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('registration_requests_user_type_unique').on(t.userId, t.registrationType)],
);

/**
 * Uploaded files of a user (identity photos, later documents and signatures). The bytes live in the
 * file storage (`app.storage`) under `storageKey`, a random name; they are served only to their owner.
 */
export const files = pgTable(
  'files',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    storageKey: text('storage_key').notNull(),
    originalName: text('original_name').notNull(),
    contentType: text('content_type').notNull(),
    size: integer('size').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('files_storage_key_unique').on(t.storageKey), index('files_user_idx').on(t.userId)],
);

/**
 * A user's identity verification session (spec 000 §3 "Identity session", §4.4). `sessionId` is the
 * provider's id; `status` 1 collecting uploads, 4 submitted, 2 approved, 3 rejected. At most one open
 * (1 or 4) session per user, so a double click cannot make two.
 */
export const identitySessions = pgTable(
  'identity_sessions',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    /** 'veriff' or 'simulator' */
    provider: text('provider').notNull(),
    sessionId: text('session_id').notNull(),
    customId: text('custom_id').notNull(),
    status: smallint('status').notNull().default(1),
    submittedAt: timestamp('submitted_at', { withTimezone: true }),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    /** The provider's decision code (Veriff: 9001 approved, 9102 declined, ...). */
    decisionCode: integer('decision_code'),
    reasonCode: integer('reason_code'),
    /** Why it was not approved, in Romanian (null when unknown). */
    reason: text('reason'),
    /** What the document says: first_name, last_name, personal_code, place_of_birth, date_of_birth. */
    person: jsonb('person').$type<Record<string, unknown>>(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    /** When the retention job deleted the session's photos (the decision and `person` stay; issue 32). */
    mediaErasedAt: timestamp('media_erased_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('identity_sessions_session_id_unique').on(t.sessionId),
    index('identity_sessions_user_idx').on(t.userId, t.createdAt),
    uniqueIndex('identity_sessions_user_open_unique')
      .on(t.userId)
      .where(sql`${t.deletedAt} is null and ${t.status} in (1, 4)`),
  ],
);

/** The photo of each upload context (document-front, document-back, face) of a session. */
export const identityUploads = pgTable(
  'identity_uploads',
  {
    id: serial('id').primaryKey(),
    identitySessionId: integer('identity_session_id')
      .notNull()
      .references(() => identitySessions.id, { onDelete: 'cascade' }),
    context: text('context').notNull(),
    fileId: integer('file_id')
      .notNull()
      .references(() => files.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('identity_uploads_session_context_unique').on(t.identitySessionId, t.context)],
);

/** SHA-256 of every provider webhook body already processed: a replay changes nothing. */
export const processedWebhooks = pgTable('processed_webhooks', {
  digest: text('digest').primaryKey(),
  provider: text('provider').notNull(),
  receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * State of the built-in identity simulator, which stands in for the provider's servers: its
 * sessions, the names of the photos it received and when it was asked to decide.
 */
export const idvSimulatorSessions = pgTable('idv_simulator_sessions', {
  sessionId: text('session_id').primaryKey(),
  vendorData: text('vendor_data'),
  /** Uploaded media: context and file name, in order. */
  media: jsonb('media').$type<{ context: string; name: string }[]>().notNull().default([]),
  submittedAt: timestamp('submitted_at', { withTimezone: true }),
  deletedAt: timestamp('deleted_at', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * A user's correspondence address (spec 001 §3 "Mailing address"), one per user: saved from the
 * mailing-address step's form (`POST /api/mailing-address`) and chosen with `custom_address`.
 */
export const mailingAddresses = pgTable(
  'mailing_addresses',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    contactFirstName: text('contact_first_name').notNull(),
    contactLastName: text('contact_last_name').notNull(),
    /** 07xxxxxxxx, optional. */
    contactPhone: text('contact_phone'),
    countyId: integer('county_id')
      .notNull()
      .references(() => counties.id),
    cityId: integer('city_id')
      .notNull()
      .references(() => cities.id),
    /** Six digits, optional. */
    postalCode: text('postal_code'),
    street: text('street').notNull(),
    number: text('number').notNull(),
    building: text('building'),
    entrance: text('entrance'),
    floor: text('floor'),
    apartment: text('apartment'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('mailing_addresses_user_unique').on(t.userId)],
);

/**
 * Branch offices of the credit partner (`icredit`), where its collaborators receive their mail
 * (spec 001 §2 item 6, §3 "County and branch office"). Seeded from seed/icredit-offices.json; ids
 * are stable (flows' examples use them).
 */
export const icreditOffices = pgTable(
  'icredit_offices',
  {
    id: integer('id').primaryKey(),
    countyId: integer('county_id')
      .notNull()
      .references(() => counties.id),
    name: text('name').notNull(),
    address: text('address').notNull(),
    /** The name as shown in lists ("iCredit Cluj-Napoca – Centru"). */
    nameFormatted: text('name_formatted').notNull(),
    isActive: boolean('is_active').notNull().default(true),
    sortOrder: integer('sort_order').notNull().default(0),
  },
  (t) => [index('icredit_offices_county_idx').on(t.countyId, t.sortOrder)],
);

/**
 * Documents of a new-company request (spec 001 §2 item 2, §3 "diploma document files"): study
 * diplomas / professional documents (`diploma`) and driving licences or certificates
 * (`driver_license`). The bytes and names are in `files`; deleting a file removes its row here.
 */
export const requestDocuments = pgTable(
  'request_documents',
  {
    id: serial('id').primaryKey(),
    requestId: integer('request_id')
      .notNull()
      .references(() => registrationRequests.id, { onDelete: 'cascade' }),
    fileId: integer('file_id')
      .notNull()
      .references(() => files.id, { onDelete: 'cascade' }),
    /**
     * 'diploma' or 'driver_license' (the applicant's), 'trade_register' (the registry's answer, attached by an operator),
     * 'legal_assistance_contract' and 'power_of_attorney_request' (the signed PDFs made when the dossier is sent)
     */
    kind: text('kind', { enum: ['diploma', 'driver_license', 'trade_register', 'legal_assistance_contract', 'power_of_attorney_request'] }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('request_documents_file_unique').on(t.fileId), index('request_documents_request_idx').on(t.requestId, t.kind)],
);

/**
 * CAEN nomenclature at class level (4-digit codes, spec 001 §3 "CAEN code", §5): the codes of a
 * new PFA (`form_data.codes` holds their ids, primary first). Seeded from seed/caen-rev2.json and caen-rev3.json; ids are
 * stable (the codes of saved requests keep pointing at them).
 */
export const caenCodes = pgTable(
  'caen_codes',
  {
    /** Carries the revision: 20000 + the code's number for CAEN Rev.2, 30000 + it for CAEN Rev.3 (server/db/caen.ts). */
    id: integer('id').primaryKey(),
    /** Four digits, as the trade register writes them ("6210"). */
    code: text('code').notNull(),
    name: text('name').notNull(),
    /** Section letter (A–U in Rev.2, A–V in Rev.3). */
    section: text('section').notNull(),
    /** "CAEN Rev.2" or "CAEN Rev.3": the same four digits may mean different activities (4791). */
    revision: text('revision').notNull(),
    /** Name without diacritics, lower-case: what search matches against. */
    searchName: text('search_name').notNull(),
  },
  (t) => [uniqueIndex('caen_codes_revision_code_unique').on(t.revision, t.code), index('caen_codes_search_idx').on(t.searchName)],
);

/** The official CAEN Rev.2 → Rev.3 correspondence (ONRC): one row per pair; a Rev.2 class that split has several. */
export const caenCorrespondence = pgTable(
  'caen_correspondence',
  {
    rev2Id: integer('rev2_id')
      .notNull()
      .references(() => caenCodes.id),
    rev3Id: integer('rev3_id')
      .notNull()
      .references(() => caenCodes.id),
  },
  (t) => [primaryKey({ columns: [t.rev2Id, t.rev3Id] }), index('caen_correspondence_rev3_idx').on(t.rev3Id)],
);

/**
 * A checkout of a request's subscription (spec 001 §2 item 8, §4 "Payment"): one row per "Vreau
 * {product}" press. `id` is ours (random, in the built-in checkout's URL); `providerSessionId` is
 * Stripe's Checkout Session id. Paid by the webhook or the built-in checkout, through one code path.
 */
export const payments = pgTable(
  'payments',
  {
    id: text('id').primaryKey(),
    requestId: integer('request_id')
      .notNull()
      .references(() => registrationRequests.id, { onDelete: 'cascade' }),
    /** 'builtin' or 'stripe' */
    provider: text('provider').notNull(),
    providerSessionId: text('provider_session_id'),
    stripePriceId: text('stripe_price_id').notNull(),
    amountBani: integer('amount_bani').notNull(),
    currency: text('currency').notNull(),
    /** open, paid, cancelled */
    status: text('status').notNull().default('open'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    /** Stripe's subscription (`sub_…`) the paid checkout opened: its invoices and cancellation find the dossier by it. */
    providerSubscriptionId: text('provider_subscription_id'),
    /** Stripe's Subscription Schedule (`sub_sched_…`) of a price with an introductory phase, once created. */
    providerScheduleId: text('provider_schedule_id'),
  },
  (t) => [
    index('payments_request_idx').on(t.requestId),
    uniqueIndex('payments_provider_session_unique').on(t.providerSessionId),
    index('payments_provider_subscription_idx').on(t.providerSubscriptionId),
  ],
);

/** Ids of payment-provider events already handled (Stripe `evt_…`): a duplicate delivery changes nothing. */
export const paymentEvents = pgTable('payment_events', {
  eventId: text('event_id').primaryKey(),
  type: text('type').notNull(),
  receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The dossier's status timeline (spec 001 §2 item 11, §3 "Timeline item types"), written by
 * operators (`npm run ops`): `type` is document_review, name_reservation, submitted, delayed,
 * rejected or finalized; `data` holds the type's own fields (isDataComplete, pfa_name, estimated_date, …).
 */
export const timelineItems = pgTable(
  'timeline_items',
  {
    id: serial('id').primaryKey(),
    requestId: integer('request_id')
      .notNull()
      .references(() => registrationRequests.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    /** The day the event happened (YYYY-MM-DD). */
    date: date('date', { mode: 'string' }).notNull(),
    data: jsonb('data').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('timeline_items_request_idx').on(t.requestId, t.date)],
);

/**
 * The local company registry (`COMPANY_LOOKUP=local`, the default): sample sole proprietorships and
 * one SRL that "Am PFA" finds by fiscal code when ANAF is not used (seed/companies.json, sample
 * data). `fiscal_code` is the CUI's digits, without `RO`.
 */
export const companies = pgTable('companies', {
  fiscalCode: text('fiscal_code').primaryKey(),
  name: text('name').notNull(),
  address: text('address').notNull(),
  /** Trade register number (ONRC), `F12/345/2020`. */
  registrationNumber: text('registration_number'),
  /** Short legal form: PFA, II, IF, SRL, SA. */
  legalForm: text('legal_form').notNull(),
  county: text('county'),
  city: text('city'),
  /** The main activity's CAEN code as the registry gives it (ANAF `cod_CAEN`): four digits, Rev.2 or Rev.3. */
  caenCode: text('caen_code'),
});

/**
 * Staff accounts (issue 18), apart from the applicants' `users`: `editor` previews the flows,
 * `operator` works on dossiers. Created with `npm run ops -- staff:add`. The e-mail is stored
 * lower-cased and trimmed; the password as `users.password_hash` (server/lib/passwords.ts).
 */
export const staffUsers = pgTable(
  'staff_users',
  {
    id: serial('id').primaryKey(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    role: text('role', { enum: ['editor', 'operator'] }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('staff_users_email_unique').on(t.email)],
);

/** Staff sign-in sessions: their own table, never the applicants' `tokens` (only the SHA-256 of the secret). */
export const staffSessions = pgTable(
  'staff_sessions',
  {
    id: serial('id').primaryKey(),
    staffUserId: integer('staff_user_id')
      .notNull()
      .references(() => staffUsers.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    /** Last request made with it (written at most once a minute); idle expiry counts from here. */
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('staff_sessions_hash_unique').on(t.tokenHash), index('staff_sessions_user_idx').on(t.staffUserId)],
);

/**
 * What staff did (issue 18): one row per action, written in the transaction of the change.
 * `staff_user_id` null: the shared OPS_TOKEN (`npm run ops`). `before`/`after`: the changed state.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: serial('id').primaryKey(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    staffUserId: integer('staff_user_id').references(() => staffUsers.id, { onDelete: 'set null' }),
    /** The operator named by `X-Ops-Actor` when the shared OPS_TOKEN acts (staff_user_id null; issue 32). */
    actor: text('actor'),
    action: text('action').notNull(),
    /** The dossier (registration request) acted on; no foreign key: the entry outlives a deleted request. */
    requestId: integer('request_id'),
    before: jsonb('before').$type<unknown>(),
    after: jsonb('after').$type<unknown>(),
  },
  (t) => [index('audit_log_request_idx').on(t.requestId, t.at), index('audit_log_at_idx').on(t.at)],
);

/**
 * Consents an applicant gave (issue 32): accepting the terms and the privacy policy at registration
 * (`terms`, with the version of the texts accepted) and marketing mails (`marketing`, withdrawn by
 * the unsubscribe link). One row per consent given; withdrawing sets `withdrawn_at`.
 */
export const consents = pgTable(
  'consents',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['terms', 'marketing'] }).notNull(),
    /** The texts accepted: `termeni <date> <sha256 prefix>; confidentialitate <date> <sha256 prefix>` (server/privacy/consents.ts). */
    version: text('version').notNull(),
    acceptedAt: timestamp('accepted_at', { withTimezone: true }).notNull().defaultNow(),
    withdrawnAt: timestamp('withdrawn_at', { withTimezone: true }),
  },
  (t) => [index('consents_user_idx').on(t.userId, t.kind)],
);

/**
 * What the law makes us keep after an account is erased (issue 32, GDPR art. 17(3)(b)): payment
 * records under the accounting law, the signed legal-assistance contract while it binds, reduced to
 * what that law needs. No link to `users` (the account is gone); `subject` is how the record names
 * its person, `keep_until` when the retention job deletes it (and its file).
 */
export const retainedRecords = pgTable(
  'retained_records',
  {
    id: serial('id').primaryKey(),
    /** 'payment' or 'contract' */
    kind: text('kind', { enum: ['payment', 'contract'] }).notNull(),
    /** The erased account's e-mail, so a later written request or an audit finds the record. */
    subject: text('subject').notNull(),
    data: jsonb('data').$type<Record<string, unknown>>().notNull().default({}),
    /** The stored file kept with it (the signed contract's PDF), else null. */
    storageKey: text('storage_key'),
    contentType: text('content_type'),
    keepUntil: date('keep_until', { mode: 'string' }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('retained_records_keep_until_idx').on(t.keepUntil), index('retained_records_subject_idx').on(t.subject)],
);

/**
 * Stored files whose rows are already erased (issue 32): written in the erasure's transaction and
 * deleted from the storage right after it; what a failure leaves here the retention job deletes.
 */
export const fileDeletions = pgTable('file_deletions', {
  storageKey: text('storage_key').primaryKey(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  attempts: integer('attempts').notNull().default(0),
});

/**
 * Runs of scheduled jobs (the retention job, issue 32): the instance that inserts a (job, day) row
 * runs that day's job; the others find it there. Works with any number of instances on one database.
 */
export const jobRuns = pgTable(
  'job_runs',
  {
    job: text('job').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    /** What the run did (counts), or its error. */
    summary: jsonb('summary').$type<Record<string, unknown>>(),
  },
  (t) => [primaryKey({ columns: [t.job, t.day] })],
);

/** Retention warnings sent (issue 32): one per user and period of inactivity (`last_action_at` it counted from). */
export const retentionNotices = pgTable(
  'retention_notices',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    lastActionAt: timestamp('last_action_at', { withTimezone: true }).notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('retention_notices_unique').on(t.userId, t.kind, t.lastActionAt)],
);
