import { eq } from 'drizzle-orm';
import type { Db } from '../db';
import { cities, counties } from '../db/schema';

export type CountyRow = typeof counties.$inferSelect;
export type CityRow = typeof cities.$inferSelect;

/** The address part of a request body (`POST /api/mailing-address`, `…/update-user-info`), after its JSON Schema. */
export interface AddressBodyFields {
  county_id: number;
  city_id: number;
  street: string;
  number: string;
  building?: string | null;
  entrance?: string | null;
  floor?: string | null;
  apartment?: string | null;
  postal_code?: string | null;
}

/**
 * Looks up an address's county and city and adds the field errors of any address form (home
 * address, correspondence address) to `errors`: either does not exist, or the city is in another
 * county. Returns both rows only when both are fine.
 */
export async function checkCountyAndCity(
  db: Db,
  countyId: number,
  cityId: number,
  errors: Record<string, string[]>,
): Promise<{ county: CountyRow; city: CityRow } | null> {
  const [county] = await db.select().from(counties).where(eq(counties.id, countyId));
  const [city] = await db.select().from(cities).where(eq(cities.id, cityId));
  if (!county) errors.county_id = ['Județul ales nu există.'];
  if (!city) errors.city_id = ['Localitatea aleasă nu există.'];
  else if (county && city.countyId !== county.id) errors.city_id = ['Localitatea aleasă nu este în județul ales.'];
  return county && city && city.countyId === county.id ? { county, city } : null;
}

/** Street names that already say what they are (no "Str." in front). */
const STREET_KIND = /^(str\.|strada|bd\.|b-dul|bulevardul|calea|aleea|al\.|șos\.|sos\.|șoseaua|soseaua|piața|p-ța|splaiul|intrarea|drumul|fundătura|str |bd )/i;

/** "Str. Lungă nr. 10, bl. A2, sc. B, et. 3, ap. 12" */
export function formatAddressLine1(a: { street: string; number: string; building?: string; entrance?: string; floor?: string; apartment?: string }): string {
  const street = STREET_KIND.test(a.street) ? a.street : `Str. ${a.street}`;
  const parts = [`${street} nr. ${a.number}`];
  if (a.building) parts.push(`bl. ${a.building}`);
  if (a.entrance) parts.push(`sc. ${a.entrance}`);
  if (a.floor) parts.push(`et. ${a.floor}`);
  if (a.apartment) parts.push(`ap. ${a.apartment}`);
  return parts.join(', ');
}

/** "Cluj-Napoca, județul Cluj, 400001" (București: "Sectorul 3, București, 030001"). */
export function formatAddressLine2(a: { city: string; county: string; countyCode: string; postalCode?: string }): string {
  const parts = [a.city, a.countyCode === 'B' ? a.county : `județul ${a.county}`];
  if (a.postalCode) parts.push(a.postalCode);
  return parts.join(', ');
}

/** A profile's home address is there: county, city, street and number (what the address form requires). */
export function hasHomeAddress(profile: Record<string, unknown>): boolean {
  return Boolean(profile.county_id && profile.city_id && profile.street && profile.number);
}
