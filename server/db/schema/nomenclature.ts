import { sql } from 'drizzle-orm';
import { type AnyPgColumn, boolean, index, integer, pgTable, primaryKey, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';

// Nomenclatures and reference data loaded by the seed (server/db/seed.ts): counties and localities,
// activities, matrimonial regimes, lost reasons, CAEN codes, the credit partner's offices and the
// local company registry.

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
