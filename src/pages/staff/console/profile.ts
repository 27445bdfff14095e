import { ADDRESS_FIELD_LABELS } from '../../../../widgets/address-form/labels';
import type { ConsoleT } from './i18n';

/**
 * The locale key naming each field of a request's profile, in the order the applicant gave them:
 * the label the applicant read (the address form's, the overview's CNP, the mailing step's "Adresa
 * din buletin"); the console's own words for what no form shows as such (the register ids, the
 * formatted address lines). A key not listed shows as itself, after these.
 */
const PROFILE_LABELS: Record<string, string> = {
  first_name: ADDRESS_FIELD_LABELS.first_name,
  last_name: ADDRESS_FIELD_LABELS.last_name,
  personal_code: 'steps:overview.personalCode',
  place_of_birth: ADDRESS_FIELD_LABELS.place_of_birth,
  county: ADDRESS_FIELD_LABELS.county_id,
  city: ADDRESS_FIELD_LABELS.city_id,
  street: ADDRESS_FIELD_LABELS.street,
  number: ADDRESS_FIELD_LABELS.number,
  building: ADDRESS_FIELD_LABELS.building,
  entrance: ADDRESS_FIELD_LABELS.entrance,
  floor: ADDRESS_FIELD_LABELS.floor,
  apartment: ADDRESS_FIELD_LABELS.apartment,
  postal_code: ADDRESS_FIELD_LABELS.postal_code,
  address_1: 'dossier.profileFields.address_1',
  address_2: 'dossier.profileFields.address_2',
  document_address: 'steps:mailingAddress.idCard',
  county_id: 'dossier.profileFields.county_id',
  city_id: 'dossier.profileFields.city_id',
};
const ORDER = Object.keys(PROFILE_LABELS);

/** The profile's fields as [key, label, value], known ones first in form order, then the rest by key. */
export function profileRows(profile: Record<string, unknown>, t: ConsoleT): [key: string, label: string, value: unknown][] {
  const rank = (key: string) => (ORDER.includes(key) ? ORDER.indexOf(key) : ORDER.length);
  return Object.keys(profile)
    .sort((a, b) => rank(a) - rank(b) || a.localeCompare(b))
    .map((key) => [key, PROFILE_LABELS[key] ? t(PROFILE_LABELS[key], { defaultValue: key }) : key, profile[key]]);
}
