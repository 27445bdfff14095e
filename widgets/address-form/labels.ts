import type { AddressValues } from '../types';

export type AddressFieldKey = keyof AddressValues | 'contact_first_name' | 'contact_last_name' | 'contact_phone';

/**
 * The locale key of each address form field's label: what the applicant reads beside the field.
 * No React here, so the staff console names a profile's fields with these too (src/pages/staff/console/profile.ts).
 */
export const ADDRESS_FIELD_LABELS: Record<AddressFieldKey, string> = {
  first_name: 'steps:address.firstName',
  last_name: 'steps:address.lastName',
  place_of_birth: 'steps:address.placeOfBirth',
  contact_first_name: 'steps:mailingAddress.contactFirstName',
  contact_last_name: 'steps:mailingAddress.contactLastName',
  contact_phone: 'steps:mailingAddress.contactPhone',
  county_id: 'steps:address.county',
  city_id: 'steps:address.city',
  street: 'steps:address.street',
  number: 'steps:address.number',
  building: 'steps:address.building',
  entrance: 'steps:address.entrance',
  floor: 'steps:address.floor',
  apartment: 'steps:address.apartment',
  postal_code: 'steps:address.postalCode',
};
