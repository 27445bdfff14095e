import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '../db';
import { cities, counties, icreditOffices, mailingAddresses } from '../db/schema';
import { FieldValidationError } from '../lib/http-errors';
import { checkCountyAndCity, type AddressBodyFields } from '../lib/places';
import type { StepRule } from './model';
import type { MailingAddress } from '../../src/core/api-types';
import { dbId } from '../lib/input-limits';

/**
 * The correspondence address of the mailing-address step (spec 001 §2 item 6, §3 "Mailing
 * address", §4 "Mailing address type") and the credit partner's branch offices: validation and
 * storage of `POST /api/mailing-address`, the address as requests carry it, and the two step rules.
 */

/** A saved correspondence address as the API returns it (`mailing_address` of a request). */
export type MailingAddressJson = MailingAddress;

/** What `POST /api/mailing-address` takes (after the route's JSON Schema). */
export interface MailingAddressBody extends AddressBodyFields {
  contact_first_name: string;
  contact_last_name: string;
  contact_phone?: string | null;
}

/** A branch office (`GET /api/nomenclature/icredit-office/index?county_id`). */
export interface BranchOfficeJson {
  id: number;
  county_id: number;
  name: string;
  address: string;
  name_formatted: string;
}

const text = (max: number) => ({ type: 'string', maxLength: max }) as const;
const optionalText = (max: number) => ({ type: ['string', 'null'], maxLength: max }) as const;

/** The body schema of `POST /api/mailing-address`; unknown fields are dropped. */
export const mailingAddressBodySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['contact_first_name', 'contact_last_name', 'county_id', 'city_id', 'street', 'number'],
  properties: {
    contact_first_name: text(100),
    contact_last_name: text(100),
    contact_phone: optionalText(20),
    county_id: dbId,
    city_id: dbId,
    street: text(150),
    number: text(20),
    building: optionalText(20),
    entrance: optionalText(20),
    floor: optionalText(20),
    apartment: optionalText(20),
    postal_code: optionalText(10),
  },
} as const;

export const MESSAGES = {
  required: 'Câmpul este obligatoriu.',
  phone: 'Numărul de telefon trebuie să aibă formatul 07xxxxxxxx.',
  postalCode: 'Codul poștal are 6 cifre.',
  saved: 'Adresa de corespondență a fost salvată.',
  noCustomAddress: 'Salvează mai întâi adresa de corespondență.',
  noIdCardAddress: 'Nu avem adresa din buletinul tău. Alege „altă adresă de corespondență” și completeaz-o.',
  officeUnknown: 'Alege o sucursală din listă.',
  officeElsewhere: 'Sucursala aleasă nu este în județul ales.',
  chooseCounty: 'Alege mai întâi județul.',
} as const;

const clean = (value: string | null | undefined): string => (typeof value === 'string' ? value.trim().replace(/\s+/g, ' ') : '');
const orNull = (value: string): string | null => (value === '' ? null : value);

/** "0722 123 456", "+40722123456", "0040-722-123-456" → "0722123456"; anything else stays as typed. */
export function normalisePhone(value: string): string {
  const compact = value.replace(/[\s.\-()/]/g, '');
  return compact.replace(/^(\+40|0040)(?=7)/, '0');
}

/**
 * Checks a correspondence address: required texts present after trimming, phone 07xxxxxxxx and
 * postal code of 6 digits when given, county and city exist and the city is in the county. Throws
 * a 422 with every field's first problem; returns the values to store.
 */
export async function validateMailingAddress(db: Db, body: MailingAddressBody) {
  const values = {
    contactFirstName: clean(body.contact_first_name),
    contactLastName: clean(body.contact_last_name),
    contactPhone: orNull(normalisePhone(clean(body.contact_phone))),
    countyId: body.county_id,
    cityId: body.city_id,
    street: clean(body.street),
    number: clean(body.number),
    building: orNull(clean(body.building)),
    entrance: orNull(clean(body.entrance)),
    floor: orNull(clean(body.floor)),
    apartment: orNull(clean(body.apartment)),
    postalCode: orNull(clean(body.postal_code).replace(/\s/g, '')),
  };
  const errors: Record<string, string[]> = {};
  if (!values.contactFirstName) errors.contact_first_name = [MESSAGES.required];
  if (!values.contactLastName) errors.contact_last_name = [MESSAGES.required];
  if (!values.street) errors.street = [MESSAGES.required];
  if (!values.number) errors.number = [MESSAGES.required];
  if (values.contactPhone !== null && !/^07\d{8}$/.test(values.contactPhone)) errors.contact_phone = [MESSAGES.phone];
  if (values.postalCode !== null && !/^\d{6}$/.test(values.postalCode)) errors.postal_code = [MESSAGES.postalCode];
  const place = await checkCountyAndCity(db, values.countyId, values.cityId, errors);
  if (Object.keys(errors).length) throw new FieldValidationError(errors);
  // A village's own postal code when none was given (SIRUTA has one for most villages).
  if (values.postalCode === null && place?.city.postalCode) values.postalCode = place.city.postalCode;
  return values;
}

/** Saves (creates or replaces) the user's one correspondence address. */
export async function saveMailingAddress(db: Db, userId: number, values: Awaited<ReturnType<typeof validateMailingAddress>>): Promise<void> {
  const now = new Date();
  await db
    .insert(mailingAddresses)
    .values({ ...values, userId, createdAt: now, updatedAt: now })
    .onConflictDoUpdate({ target: mailingAddresses.userId, set: { ...values, updatedAt: now } });
}

/** The user's saved correspondence address with the names of its county and city, or null. */
export async function mailingAddressOf(db: Db, userId: number): Promise<MailingAddressJson | null> {
  const [row] = await db
    .select({
      contact_first_name: mailingAddresses.contactFirstName,
      contact_last_name: mailingAddresses.contactLastName,
      contact_phone: mailingAddresses.contactPhone,
      county_id: mailingAddresses.countyId,
      city_id: mailingAddresses.cityId,
      county: counties.name,
      city: cities.label,
      postal_code: mailingAddresses.postalCode,
      street: mailingAddresses.street,
      number: mailingAddresses.number,
      building: mailingAddresses.building,
      entrance: mailingAddresses.entrance,
      floor: mailingAddresses.floor,
      apartment: mailingAddresses.apartment,
    })
    .from(mailingAddresses)
    .innerJoin(counties, eq(counties.id, mailingAddresses.countyId))
    .innerJoin(cities, eq(cities.id, mailingAddresses.cityId))
    .where(eq(mailingAddresses.userId, userId));
  return row ?? null;
}

/** The active branch offices of a county, in their order. */
export async function branchOfficesIn(db: Db, countyId: number): Promise<BranchOfficeJson[]> {
  return db
    .select({
      id: icreditOffices.id,
      county_id: icreditOffices.countyId,
      name: icreditOffices.name,
      address: icreditOffices.address,
      name_formatted: icreditOffices.nameFormatted,
    })
    .from(icreditOffices)
    .where(and(eq(icreditOffices.countyId, countyId), eq(icreditOffices.isActive, true)))
    .orderBy(asc(icreditOffices.sortOrder), asc(icreditOffices.name), asc(icreditOffices.id));
}

/** Spec 000 §5: a home address has county, city, street and number. */
function hasHomeAddress(profile: Record<string, unknown>): boolean {
  return Boolean(profile.county_id && profile.city_id && profile.street && profile.number);
}

/**
 * `collect/mailing-address-type`: `custom_address` needs a saved correspondence address,
 * `id_card_address` needs the home address of the profile.
 */
export const mailingAddressType: StepRule = async ({ app, body, request }) => {
  if (body.mailing_address_type === 'custom_address') {
    if (!(await mailingAddressOf(app.db, request.userId))) throw new FieldValidationError({ mailing_address_type: [MESSAGES.noCustomAddress] });
  } else if (!hasHomeAddress(request.profile)) {
    throw new FieldValidationError({ mailing_address_type: [MESSAGES.noIdCardAddress] });
  }
};

/**
 * `collect/icredit-office`: the office exists, is active and, when a county is sent, lies in it.
 * Keeps the office's county and address with the request (`icredit_county_id`, `icredit_address`).
 */
export const icreditOffice: StepRule = async ({ app, body }) => {
  const [office] = await app.db.select().from(icreditOffices).where(eq(icreditOffices.id, body.icredit_office_id as number));
  if (!office || !office.isActive) throw new FieldValidationError({ icredit_office_id: [MESSAGES.officeUnknown] });
  const countyId = body.icredit_county_id;
  if (typeof countyId === 'number' && countyId !== office.countyId) {
    throw new FieldValidationError({ icredit_office_id: [MESSAGES.officeElsewhere] });
  }
  return { icredit_county_id: office.countyId, icredit_address: office.address };
};
