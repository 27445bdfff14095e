import { describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HomeAddress } from '../../widgets/id-capture/HomeAddress';
import { documentAddress } from '../../widgets/id-capture/identity-rules';
import type { AddressValues, Profile } from '../../widgets/types';
import { t } from '../engine/render';
import { renderUi, spyPlaces } from './helpers';

const PERSON: Profile = { first_name: 'Ion', last_name: 'Popescu', personal_code: '1900101123456', place_of_birth: 'Mun. Brașov, jud. Brașov' };

function setup(profile: Profile) {
  const save = vi.fn<(values: AddressValues) => Promise<void>>(async () => {});
  const user = userEvent.setup({ delay: null });
  renderUi(<HomeAddress profile={profile} places={spyPlaces()} t={t} withPlaceOfBirth save={save} />);
  return { save, user };
}

const field = (name: string) => screen.getByRole('textbox', { name }) as HTMLInputElement;
const picker = (name: string) => screen.getByRole('combobox', { name }) as HTMLInputElement;

describe('HomeAddress: the address read from the identity card', () => {
  it('not certain: shows the card text, and the form opens with the county and the street, the locality to pick', async () => {
    const text = 'Sat Pădureni, Str. Morii nr. 7, Jud. Cluj';
    const { user, save } = setup({ ...PERSON, document_address: text, county_id: 12, county: 'Cluj', street: 'Morii', number: '7' } as Profile);
    expect(screen.getByTestId('identity-missing-address').textContent).toContain(t('steps:identity.missingAddress'));
    const shown = screen.getByTestId('identity-document-address');
    expect(shown.textContent).toContain(t('steps:identity.documentAddress', { address: text }));
    expect(shown.textContent).toContain(t('steps:identity.documentAddressPick'));

    await user.click(screen.getByRole('button', { name: t('steps:identity.edit') }));
    expect(picker(t('steps:address.county')).value).toBe('Cluj');
    expect(picker(t('steps:address.city')).value).toBe('');
    expect(field(t('steps:address.street')).value).toBe('Morii');
    expect(field(t('steps:address.number')).value).toBe('7');
    expect(field(t('steps:address.firstName')).value).toBe('Ion');
    // Without the locality the form cannot be saved: the applicant picks it.
    expect((screen.getByRole('button', { name: t('steps:address.save') }) as HTMLButtonElement).disabled).toBe(true);
    expect(save).not.toHaveBeenCalled();
  });

  it('the locality known but the street missing (a village without streets): says what to add', () => {
    setup({ ...PERSON, document_address: 'Com. Albac, Sat Rogoz nr. 12, Jud. Alba', county_id: 1, county: 'Alba', city_id: 101, city: 'Rogoz, comuna Albac', number: '12' } as Profile);
    expect(screen.getByTestId('identity-document-address').textContent).toContain(t('steps:identity.documentAddressComplete'));
  });

  it('a complete address shows the address only, not the card text', () => {
    setup({
      ...PERSON,
      document_address: 'Mun. Cluj-Napoca, Str. Memorandumului nr. 10, ap. 3, Jud. Cluj',
      county_id: 12,
      county: 'Cluj',
      city_id: 1201,
      city: 'Cluj-Napoca',
      street: 'Memorandumului',
      number: '10',
      apartment: '3',
      address_1: 'Str. Memorandumului nr. 10, ap. 3',
      address_2: 'Cluj-Napoca, județul Cluj',
    } as Profile);
    expect(screen.getByTestId('identity-address').textContent).toContain('Str. Memorandumului nr. 10, ap. 3, Cluj-Napoca, județul Cluj');
    expect(screen.queryByTestId('identity-document-address')).toBeNull();
    expect(screen.queryByTestId('identity-missing-address')).toBeNull();
  });

  it('without a card address nothing changes: the missing line only', () => {
    setup(PERSON);
    expect(screen.getByTestId('identity-missing-address')).toBeTruthy();
    expect(screen.queryByTestId('identity-document-address')).toBeNull();
  });

  it('documentAddress reads a non-empty text only', () => {
    expect(documentAddress({ document_address: '  Com. Albac  ' } as Profile)).toBe('Com. Albac');
    expect(documentAddress({ document_address: '  ' } as Profile)).toBeNull();
    expect(documentAddress({ document_address: 12 } as unknown as Profile)).toBeNull();
    expect(documentAddress({})).toBeNull();
  });
});
