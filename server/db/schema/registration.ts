import { boolean, date, index, integer, jsonb, pgTable, serial, smallint, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './accounts';
import { files } from './files';
import { cities, counties } from './nomenclature';

// The wizard's requests and what hangs on them: the request row (written only by the request store,
// server/registration/store.ts), its documents, its status timeline and the mailing address.

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
