import type { FastifyPluginAsync } from 'fastify';
import { checkCountyAndCity, formatAddressLine1, formatAddressLine2, type AddressBodyFields } from '../lib/places';
import { FieldValidationError, forbidden } from '../lib/http-errors';
import type { UserRow } from '../lib/tokens';
import { requestReplies } from '../lib/api-schemas';
import { loadRequest } from '../registration/serialize';
import { mergeProfile } from '../registration/store';

interface UserInfoBody extends AddressBodyFields {
  first_name: string;
  last_name: string;
  place_of_birth?: string | null;
}

const REQUIRED = 'Câmpul este obligatoriu.';

export default (async (app) => {
  // schemas/user-info.json is registered once, with every step schema, by the flows plugin.
  if (!app.getSchema('user-info.json')) throw new Error('schemas/user-info.json is missing');

  /**
   * The home address and place of birth from the identity step's address form ('Modifică
   * informații'), saved into the request's profile with the formatted address lines.
   */
  app.post<{ Body: UserInfoBody }>(
    '/registration/update-user-info',
    { onRequest: app.authenticate, schema: { body: { $ref: 'user-info.json#' }, response: requestReplies } },
    async (request) => {
      const user = request.user as UserRow;
      const flow = app.flows.byType[user.registrationType as 1 | 2];
      if (!flow) throw forbidden();
      const { request: row, serialize } = await loadRequest(app, user, flow);

      const body = request.body;
      const clean = (value: string | null | undefined) => (typeof value === 'string' ? value.trim().replace(/\s+/g, ' ') : '');
      const values = {
        first_name: clean(body.first_name),
        last_name: clean(body.last_name),
        street: clean(body.street),
        number: clean(body.number),
        building: clean(body.building),
        entrance: clean(body.entrance),
        floor: clean(body.floor),
        apartment: clean(body.apartment),
        postal_code: clean(body.postal_code),
      };
      const errors: Record<string, string[]> = {};
      for (const key of ['first_name', 'last_name', 'street', 'number'] as const) {
        if (!values[key]) errors[key] = [REQUIRED];
      }
      const place = await checkCountyAndCity(app.db, body.county_id, body.city_id, errors);
      if (Object.keys(errors).length || !place) throw new FieldValidationError(errors);
      const { county, city } = place;
      // A village's own postal code when the applicant left the field empty (SIRUTA has one for most villages).
      values.postal_code ||= city.postalCode ?? '';

      const profile: Record<string, unknown> = {
        ...values,
        county_id: county.id,
        county: county.name,
        city_id: city.id,
        city: city.label,
        address_1: formatAddressLine1(values),
        address_2: formatAddressLine2({ city: city.label, county: county.name, countyCode: county.code, postalCode: values.postal_code }),
      };
      // An empty place of birth keeps the one already known (from the identity document).
      const placeOfBirth = clean(body.place_of_birth);
      if (placeOfBirth) profile.place_of_birth = placeOfBirth;

      // Merged into the newest profile: what the identity decision wrote meanwhile is kept.
      const updated = (await mergeProfile(app.db, row.id, profile)) ?? row;
      return { message: 'Informațiile au fost modificate.', payload: await serialize(updated) };
    },
  );
}) satisfies FastifyPluginAsync;
