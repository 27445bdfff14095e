import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { eq, notInArray, sql } from 'drizzle-orm';
import { COUNTIES, countyByCode, searchKey } from '../../src/core/counties';
import type { Db } from './types';
import { activities, caenCodes, cities, companies, counties, icreditOffices, lostReasons, maritalStatuses, partnerPrices, partners, seedRuns } from './schema';
import { hasValidCheckDigit, normalizeFiscalCode } from '../../src/core/fiscal-code';

const seedDir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'seed');

interface PartnersFile {
  partners: Array<{
    slug: string;
    name: string;
    is_unaffiliated: boolean;
    sort_order: number;
    description: string | null;
    footnote: string | null;
    prices: Array<{
      description: string;
      stripe_price_id: string;
      amount_bani: number;
      currency: string;
      interval: string;
      /** `amount_bani` for the first `months` intervals, then `then_amount_bani` (on Stripe's `then_stripe_price_id`). */
      introductory?: { months: number; then_amount_bani: number; then_stripe_price_id: string } | null;
    }>;
  }>;
}

/** An introductory phase must be whole: a number of months (≥ 1), the later amount and its provider price id. */
function introductoryOf(slug: string, price: PartnersFile['partners'][number]['prices'][number]) {
  const intro = price.introductory;
  if (!intro) return { introMonths: null, thenAmountBani: null, thenStripePriceId: null };
  const valid =
    Number.isInteger(intro.months) && intro.months >= 1 && Number.isInteger(intro.then_amount_bani) && intro.then_amount_bani > 0 && typeof intro.then_stripe_price_id === 'string' && intro.then_stripe_price_id.trim() !== '';
  if (!valid || !price.interval) throw new Error(`partners.json: ${slug} ${price.stripe_price_id}: introductory needs months (≥ 1), then_amount_bani and then_stripe_price_id, on a recurring price`);
  return { introMonths: intro.months, thenAmountBani: intro.then_amount_bani, thenStripePriceId: intro.then_stripe_price_id };
}

export interface LocalitiesFile {
  source: string;
  counties: Array<{
    code: string;
    name: string;
    siruta: number | null;
    cities: Array<{ name: string; kind: string; siruta: number | null }>;
  }>;
}

function readSeed(name: string): { text: string; checksum: string } {
  const text = fs.readFileSync(path.join(seedDir, name), 'utf8');
  return { text, checksum: createHash('sha256').update(text).digest('hex') };
}

/** Runs `apply` when the seed file changed since it was last applied (or was never applied). */
async function once(db: Db, name: string, apply: (text: string) => Promise<void>): Promise<void> {
  const { text, checksum } = readSeed(name);
  const [done] = await db.select().from(seedRuns).where(eq(seedRuns.name, name));
  if (done?.checksum === checksum) return;
  await apply(text);
  await db
    .insert(seedRuns)
    .values({ name, checksum })
    .onConflictDoUpdate({ target: seedRuns.name, set: { checksum, ranAt: sql`now()` } });
}

async function seedPartners(db: Db, text: string): Promise<void> {
  const file = JSON.parse(text) as PartnersFile;
  for (const p of file.partners) {
    const values = {
      slug: p.slug,
      name: p.name,
      isUnaffiliated: p.is_unaffiliated,
      sortOrder: p.sort_order,
      description: p.description,
      footnote: p.footnote,
    };
    const [row] = await db
      .insert(partners)
      .values(values)
      .onConflictDoUpdate({ target: partners.slug, set: values })
      .returning({ id: partners.id });
    for (const [i, price] of p.prices.entries()) {
      const priceValues = {
        partnerId: row.id,
        description: price.description,
        stripePriceId: price.stripe_price_id,
        amountBani: price.amount_bani,
        currency: price.currency,
        interval: price.interval,
        sortOrder: i,
        ...introductoryOf(p.slug, price),
      };
      await db
        .insert(partnerPrices)
        .values(priceValues)
        .onConflictDoUpdate({ target: partnerPrices.stripePriceId, set: priceValues });
    }
  }
}

async function seedLocalities(db: Db, text: string): Promise<void> {
  const file = JSON.parse(text) as LocalitiesFile;
  // The 42 counties come from src/core (their ids are the official county numbers).
  for (const county of COUNTIES) {
    const siruta = file.counties.find((c) => c.code === county.code)?.siruta ?? null;
    const values = { ...county, siruta };
    await db.insert(counties).values(values).onConflictDoUpdate({ target: counties.id, set: values });
  }
  for (const c of file.counties) {
    const known = countyByCode(c.code);
    if (!known) throw new Error(`localities.json: unknown county code ${c.code}`);
    const rows = c.cities.map((city) => ({
      countyId: known.id,
      name: city.name,
      kind: city.kind,
      siruta: city.siruta,
      searchName: searchKey(city.name),
    }));
    for (let i = 0; i < rows.length; i += 500) {
      await db.insert(cities).values(rows.slice(i, i + 500)).onConflictDoNothing();
    }
  }
}

interface NomenclatureFiles {
  activities: Array<{ id: number; code: string; name: string; is_primary: boolean; sort_order: number }>;
  marital_statuses: Array<{ id: number; code: string; display_name: string; display_description: string; is_default: boolean }>;
  lost_reasons: Array<{ identifier: string; fe_text: string; fe_subtext: string | null; questionnaire_types: number[] }>;
}

async function seedActivities(db: Db, text: string): Promise<void> {
  for (const a of (JSON.parse(text) as Pick<NomenclatureFiles, 'activities'>).activities) {
    const values = { id: a.id, code: a.code, name: a.name, isPrimary: a.is_primary, sortOrder: a.sort_order, isActive: true };
    await db.insert(activities).values(values).onConflictDoUpdate({ target: activities.id, set: values });
  }
}

async function seedMaritalStatuses(db: Db, text: string): Promise<void> {
  for (const [i, m] of (JSON.parse(text) as Pick<NomenclatureFiles, 'marital_statuses'>).marital_statuses.entries()) {
    const values = {
      id: m.id,
      code: m.code,
      displayName: m.display_name,
      displayDescription: m.display_description,
      isDefault: m.is_default,
      sortOrder: i,
    };
    await db.insert(maritalStatuses).values(values).onConflictDoUpdate({ target: maritalStatuses.id, set: values });
  }
}

async function seedLostReasons(db: Db, text: string): Promise<void> {
  for (const [i, r] of (JSON.parse(text) as Pick<NomenclatureFiles, 'lost_reasons'>).lost_reasons.entries()) {
    const values = {
      identifier: r.identifier,
      feText: r.fe_text,
      feSubtext: r.fe_subtext,
      questionnaireTypes: r.questionnaire_types,
      sortOrder: i,
    };
    await db.insert(lostReasons).values(values).onConflictDoUpdate({ target: lostReasons.identifier, set: values });
  }
}

interface IcreditOfficesFile {
  offices: Array<{ id: number; county_id: number; name: string; name_formatted: string; address: string; is_active: boolean; sort_order: number }>;
}

/** The credit partner's branch offices, by id; offices no longer in the file stay (requests may name them) but are inactive. */
async function seedIcreditOffices(db: Db, text: string): Promise<void> {
  const { offices } = JSON.parse(text) as IcreditOfficesFile;
  for (const o of offices) {
    const values = {
      id: o.id,
      countyId: o.county_id,
      name: o.name,
      nameFormatted: o.name_formatted,
      address: o.address,
      isActive: o.is_active,
      sortOrder: o.sort_order,
    };
    await db.insert(icreditOffices).values(values).onConflictDoUpdate({ target: icreditOffices.id, set: values });
  }
  const ids = offices.map((o) => o.id);
  if (ids.length) await db.update(icreditOffices).set({ isActive: false }).where(notInArray(icreditOffices.id, ids));
}

interface CaenSeedFile {
  revision: string;
  codes: Array<{ id: number; code: string; name: string; section: string }>;
}

/** CAEN classes by id (the code's number); codes no longer in the file stay (requests may name them). */
async function seedCaenCodes(db: Db, text: string): Promise<void> {
  const { revision, codes } = JSON.parse(text) as CaenSeedFile;
  const rows = codes.map((c) => ({ id: c.id, code: c.code, name: c.name, section: c.section, revision, searchName: searchKey(c.name) }));
  for (let i = 0; i < rows.length; i += 200) {
    await db
      .insert(caenCodes)
      .values(rows.slice(i, i + 200))
      .onConflictDoUpdate({
        target: caenCodes.id,
        set: { code: sql`excluded.code`, name: sql`excluded.name`, section: sql`excluded.section`, revision: sql`excluded.revision`, searchName: sql`excluded.search_name` },
      });
  }
}

export interface CompaniesFile {
  companies: Array<{
    fiscal_code: string;
    name: string;
    address: string;
    registration_number: string | null;
    legal_form: string;
    county: string | null;
    city: string | null;
  }>;
}

/** The local company registry (sample data) by fiscal code; companies no longer in the file are removed. */
async function seedCompanies(db: Db, text: string): Promise<void> {
  const file = JSON.parse(text) as CompaniesFile;
  for (const c of file.companies) {
    if (normalizeFiscalCode(c.fiscal_code) !== c.fiscal_code || !hasValidCheckDigit(c.fiscal_code)) {
      throw new Error(`companies.json: ${c.fiscal_code} is not a CUI (digits only, valid check digit)`);
    }
    const values = {
      fiscalCode: c.fiscal_code,
      name: c.name,
      address: c.address,
      registrationNumber: c.registration_number,
      legalForm: c.legal_form,
      county: c.county,
      city: c.city,
    };
    await db.insert(companies).values(values).onConflictDoUpdate({ target: companies.fiscalCode, set: values });
  }
  const codes = file.companies.map((c) => c.fiscal_code);
  if (codes.length) await db.delete(companies).where(notInArray(companies.fiscalCode, codes));
  else await db.delete(companies);
}

/** Loads partners and nomenclatures; cheap when nothing changed (one checksum per file). */
export async function seedDatabase(db: Db): Promise<void> {
  await once(db, 'partners.json', (text) => seedPartners(db, text));
  await once(db, 'localities.json', (text) => seedLocalities(db, text));
  await once(db, 'activities.json', (text) => seedActivities(db, text));
  await once(db, 'marital-statuses.json', (text) => seedMaritalStatuses(db, text));
  await once(db, 'lost-reasons.json', (text) => seedLostReasons(db, text));
  await once(db, 'icredit-offices.json', (text) => seedIcreditOffices(db, text));
  await once(db, 'caen.json', (text) => seedCaenCodes(db, text));
  await once(db, 'companies.json', (text) => seedCompanies(db, text));
}
