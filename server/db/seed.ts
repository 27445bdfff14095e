import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { and, count, eq, isNull, notInArray, sql } from 'drizzle-orm';
import { COUNTIES, countyByCode, localityLabel, searchKey } from '../../src/core/counties';
import type { Db } from './types';
import { seedCaenCorrespondence, seedCaenList } from './caen';
import { activities, cities, companies, counties, icreditOffices, lostReasons, maritalStatuses, partnerPrices, partners, seedRuns } from './schema';
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
    cities: Array<{ name: string; kind: string; siruta: number | null; parentSiruta?: number; postalCode?: string }>;
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

/**
 * The SIRUTA register (issue 31): counties, then every municipality, town, commune and sector, then
 * the villages under them (their parent's id found by its SIRUTA code). A locality is found again
 * by its SIRUTA code, so ids never change and addresses keep pointing at the same place; rows from
 * before the register carried codes (the 326 towns of the first seed) are adopted by county, name
 * and kind. Localities no longer in the file stay (addresses may name them).
 */
async function seedLocalities(db: Db, text: string): Promise<void> {
  const file = JSON.parse(text) as LocalitiesFile;
  // The 42 counties come from src/core (their ids are the official county numbers).
  for (const county of COUNTIES) {
    const siruta = file.counties.find((c) => c.code === county.code)?.siruta ?? null;
    const values = { ...county, siruta };
    await db.insert(counties).values(values).onConflictDoUpdate({ target: counties.id, set: values });
  }
  type Entry = LocalitiesFile['counties'][number]['cities'][number] & { countyId: number };
  const entries: Entry[] = [];
  for (const c of file.counties) {
    const known = countyByCode(c.code);
    if (!known) throw new Error(`localities.json: unknown county code ${c.code}`);
    for (const city of c.cities) {
      if (!Number.isInteger(city.siruta)) throw new Error(`localities.json: ${c.code} ${city.name} has no SIRUTA code`);
      entries.push({ ...city, countyId: known.id });
    }
  }
  const units = entries.filter((e) => e.parentSiruta === undefined);
  const villages = entries.filter((e) => e.parentSiruta !== undefined);
  const unitBySiruta = new Map(units.map((u) => [u.siruta as number, u]));

  const [{ legacy }] = await db.select({ legacy: count() }).from(cities).where(isNull(cities.siruta));
  if (legacy > 0) {
    for (const u of units) {
      await db
        .update(cities)
        .set({ siruta: u.siruta })
        .where(and(isNull(cities.siruta), eq(cities.countyId, u.countyId), eq(cities.name, u.name), eq(cities.kind, u.kind)));
    }
  }

  // One statement per level, the rows as one JSON parameter: ~16,600 localities load in a fraction of a second.
  const upsert = async (rows: Array<Record<string, unknown>>) => {
    await db.execute(sql`
      insert into cities (county_id, name, kind, siruta, parent_id, label, postal_code, search_name)
      select x.county_id, x.name, x.kind, x.siruta, p.id, x.label, x.postal_code, x.search_name
      from json_to_recordset(${JSON.stringify(rows)}::json)
        as x(county_id integer, name text, kind text, siruta integer, parent_siruta integer, label text, postal_code text, search_name text)
      left join cities p on p.siruta = x.parent_siruta
      on conflict (siruta) do update set county_id = excluded.county_id, name = excluded.name, kind = excluded.kind,
        parent_id = excluded.parent_id, label = excluded.label, postal_code = excluded.postal_code, search_name = excluded.search_name`);
  };
  const row = (e: Entry, label: string) => ({
    county_id: e.countyId,
    name: e.name,
    kind: e.kind,
    siruta: e.siruta,
    parent_siruta: e.parentSiruta ?? null,
    label,
    postal_code: e.postalCode ?? null,
    search_name: searchKey(label),
  });
  await upsert(units.map((u) => row(u, u.name)));
  await upsert(
    villages.map((v) => {
      const parent = unitBySiruta.get(v.parentSiruta as number);
      if (!parent) throw new Error(`localities.json: ${v.name} (${v.siruta}) names parent ${v.parentSiruta}, which is not in the file`);
      return row(v, localityLabel(v.name, parent));
    }),
  );
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

export interface CompaniesFile {
  companies: Array<{
    fiscal_code: string;
    name: string;
    address: string;
    registration_number: string | null;
    legal_form: string;
    county: string | null;
    city: string | null;
    /** The main activity's CAEN code as ANAF gives it (`cod_CAEN`): four digits, Rev.2 or Rev.3; null or absent when unknown. */
    caen_code?: string | null;
  }>;
}

/** The local company registry (sample data) by fiscal code; companies no longer in the file are removed. */
async function seedCompanies(db: Db, text: string): Promise<void> {
  const file = JSON.parse(text) as CompaniesFile;
  for (const c of file.companies) {
    if (normalizeFiscalCode(c.fiscal_code) !== c.fiscal_code || !hasValidCheckDigit(c.fiscal_code)) {
      throw new Error(`companies.json: ${c.fiscal_code} is not a CUI (digits only, valid check digit)`);
    }
    if (c.caen_code != null && !/^\d{4}$/.test(c.caen_code)) throw new Error(`companies.json: ${c.fiscal_code}: caen_code ${c.caen_code} is not four digits`);
    const values = {
      fiscalCode: c.fiscal_code,
      name: c.name,
      address: c.address,
      registrationNumber: c.registration_number,
      legalForm: c.legal_form,
      county: c.county,
      city: c.city,
      caenCode: c.caen_code ?? null,
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
  // CAEN: both class lists, then the correspondence, which also moves unsent requests to Rev.3.
  await once(db, 'caen-rev2.json', (text) => seedCaenList(db, text));
  await once(db, 'caen-rev3.json', (text) => seedCaenList(db, text));
  await once(db, 'caen-rev2-rev3.json', (text) => seedCaenCorrespondence(db, text));
  await once(db, 'companies.json', (text) => seedCompanies(db, text));
}
