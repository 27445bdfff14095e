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
