import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { AddressForm, type AddressFormProps } from '../../widgets/address-form/AddressForm';
import type { AddressValues, Profile } from '../../widgets/types';
import { t } from '../engine/render';
import { textPattern } from '../copy';
import { choose, renderUi, spyPlaces } from './helpers';
import userInfo from '../../schemas/user-info.json';


const FULL: Profile = {
  first_name: 'Ion',
  last_name: 'Popescu',
  place_of_birth: 'Cluj-Napoca',
  county_id: 12,
  county: 'Cluj',
  city_id: 1202,
  city: 'Turda',
  street: 'Republicii',
  number: '10',
  building: 'B2',
  entrance: '',
  floor: '3',
  apartment: '12',
  postal_code: '401000',
};

function setup(props: Partial<AddressFormProps> = {}) {
  const places = spyPlaces();
  const onSave = vi.fn<(values: AddressValues) => Promise<void>>(async () => {});
  const user = userEvent.setup({ delay: null });
  renderUi(<AddressForm initial={{}} places={places} t={t} onSave={onSave} {...props} />);
  return { places, onSave, user };
}

const field = (name: string) => screen.getByRole('textbox', { name });
const picker = (name: string) => screen.getByRole('combobox', { name });
const saveButton = () => screen.getByRole('button', { name: t('steps:address.save') });
const isDisabled = (el: HTMLElement) => (el as HTMLButtonElement).disabled;

async function fillRequired(user: ReturnType<typeof userEvent.setup>, withPlaceOfBirth = false) {
  await user.type(field(t('steps:address.firstName')), 'Ion');
  await user.type(field(t('steps:address.lastName')), 'Popescu');
  if (withPlaceOfBirth) await user.type(field(t('steps:address.placeOfBirth')), 'Cluj-Napoca');
  await choose(user, picker(t('steps:address.county')), 'Clu', 'Cluj');
  await choose(user, picker(t('steps:address.city')), 'Tur', 'Turda');
  await user.type(field(t('steps:address.street')), 'Republicii');
  await user.type(field(t('steps:address.number')), '10');
}

describe('AddressForm', () => {
  it('requires what schemas/user-info.json requires (the body schema of update-user-info), and no other text field', () => {
    setup();
    const labels: Record<string, string> = { first_name: 'firstName', last_name: 'lastName', street: 'street', number: 'number', building: 'building', entrance: 'entrance', floor: 'floor', apartment: 'apartment', postal_code: 'postalCode' };
    for (const [key, label] of Object.entries(labels)) {
      expect((field(t(`steps:address.${label}`)) as HTMLInputElement).required, key).toBe(userInfo.required.includes(key));
    }
  });

  it('names every input with its Romanian label', () => {
    setup({ withPlaceOfBirth: true });
    for (const label of [t('steps:address.firstName'), t('steps:address.lastName'), t('steps:address.placeOfBirth'), t('steps:address.street'), t('steps:address.number'), t('steps:address.building'), t('steps:address.entrance'), t('steps:address.floor'), t('steps:address.apartment'), t('steps:address.postalCode')]) {
      const input = field(label);
      expect(screen.getByLabelText(new RegExp(`^${label}`), { selector: 'input' })).toBe(input);
    }
    for (const label of [t('steps:address.county'), t('steps:address.city')]) {
      expect(screen.getByLabelText(new RegExp(`^${label}`), { selector: 'input' })).toBe(picker(label));
    }
    expect(screen.getAllByRole('textbox').length + screen.getAllByRole('combobox').length).toBe(12);
    expect(screen.getByRole('group', { name: t('steps:address.title') })).toBeTruthy();
  });

  it('keeps the city disabled until a county is chosen', async () => {
    const { user } = setup();
    expect(isDisabled(picker(t('steps:address.city')))).toBe(true);
    await waitFor(() => expect(screen.getByText(t('steps:address.chooseCountyFirst'))).toBeTruthy());
    await choose(user, picker(t('steps:address.county')), 'Clu', 'Cluj');
    expect(isDisabled(picker(t('steps:address.city')))).toBe(false);
  });

  it('disables "Salvează" until first name, last name, county, city, street and number are filled', async () => {
    const { user, onSave } = setup();
    expect(isDisabled(saveButton())).toBe(true);
    expect(screen.queryByRole('textbox', { name: t('steps:address.placeOfBirth') })).toBeNull();
    await user.type(field(t('steps:address.firstName')), 'Ion');
    await user.type(field(t('steps:address.lastName')), 'Popescu');
    await choose(user, picker(t('steps:address.county')), 'Clu', 'Cluj');
    await user.type(field(t('steps:address.street')), 'Republicii');
    await user.type(field(t('steps:address.number')), '10');
    expect(isDisabled(saveButton())).toBe(true); // no city yet
    await choose(user, picker(t('steps:address.city')), 'Tur', 'Turda');
    expect(isDisabled(saveButton())).toBe(false);
    await user.clear(field(t('steps:address.number')));
    await user.type(field(t('steps:address.number')), '   ');
    expect(isDisabled(saveButton())).toBe(true); // blanks do not count
    await user.clear(field(t('steps:address.number')));
    await user.type(field(t('steps:address.number')), '10A ');
    await user.type(field(t('steps:address.postalCode')), '400000');
    await user.click(saveButton());
    expect(onSave).toHaveBeenCalledWith({
      first_name: 'Ion',
      last_name: 'Popescu',
      county_id: 12,
      city_id: 1202,
      street: 'Republicii',
      number: '10A',
      building: '',
      entrance: '',
      floor: '',
      apartment: '',
      postal_code: '400000',
      place_of_birth: '',
    });
  });

  it('requires the place of birth only when it is enabled', async () => {
    const { user, onSave } = setup({ withPlaceOfBirth: true });
    await fillRequired(user);
    expect(isDisabled(saveButton())).toBe(true);
    await user.type(field(t('steps:address.placeOfBirth')), 'Cluj-Napoca');
    expect(isDisabled(saveButton())).toBe(false);
    await user.click(saveButton());
    expect(onSave.mock.calls[0][0].place_of_birth).toBe('Cluj-Napoca');
  });

  it('starts from the profile, showing the county and city names before their lists load', () => {
    const onSave = vi.fn(async () => {});
    const places = { counties: () => new Promise<never>(() => {}), cities: () => new Promise<never>(() => {}) };
    renderUi(<AddressForm initial={FULL} places={places} t={t} onSave={onSave} withPlaceOfBirth />);
    expect(field(t('steps:address.firstName'))).toHaveProperty('value', 'Ion');
    expect(field(t('steps:address.placeOfBirth'))).toHaveProperty('value', 'Cluj-Napoca');
    expect(picker(t('steps:address.county'))).toHaveProperty('value', 'Cluj');
    expect(picker(t('steps:address.city'))).toHaveProperty('value', 'Turda');
    expect(field(t('steps:address.apartment'))).toHaveProperty('value', '12');
    expect(isDisabled(saveButton())).toBe(false);
  });

  it('clears the city when the county changes', async () => {
    const { user, onSave } = setup({ initial: FULL });
    expect(picker(t('steps:address.city'))).toHaveProperty('value', 'Turda');
    await choose(user, picker(t('steps:address.county')), 'Alb', 'Alba');
    await waitFor(() => expect(picker(t('steps:address.city'))).toHaveProperty('value', ''));
    expect(isDisabled(saveButton())).toBe(true);
    await choose(user, picker(t('steps:address.city')), 'Iul', 'Alba Iulia');
    await user.click(saveButton());
    expect(onSave.mock.calls[0][0]).toMatchObject({ county_id: 1, city_id: 101 });
  });

  it('a village fills its postal code; another village replaces it; a code the applicant typed stays', async () => {
    const { user, onSave } = setup({ initial: { ...FULL, postal_code: '' } });
    await choose(user, picker(t('steps:address.county')), 'Alb', 'Alba');
    await choose(user, picker(t('steps:address.city')), 'rogoz', 'Rogoz, comuna Albac');
    expect(field(t('steps:address.postalCode'))).toHaveProperty('value', '517018');
    await choose(user, picker(t('steps:address.city')), 'barasti', 'Bărăști, comuna Albac');
    expect(field(t('steps:address.postalCode'))).toHaveProperty('value', '517006');
    // A commune has no single code: the village's goes.
    await choose(user, picker(t('steps:address.city')), 'Albac', 'Albac');
    expect(field(t('steps:address.postalCode'))).toHaveProperty('value', '');
    await user.type(field(t('steps:address.postalCode')), '517000');
    await choose(user, picker(t('steps:address.city')), 'rogoz', 'Rogoz, comuna Albac');
    expect(field(t('steps:address.postalCode'))).toHaveProperty('value', '517000');
    await user.click(saveButton());
    expect(onSave.mock.calls[0][0]).toMatchObject({ county_id: 1, city_id: 103, postal_code: '517000' });
  });

  it('shows server field errors under their fields, scrolls to the first and clears one when it is edited', async () => {
    const scrolled: string[] = [];
    const scrollSpy = vi.spyOn(Element.prototype, 'scrollIntoView').mockImplementation(function (this: Element) {
      scrolled.push(this.id);
    });
    const onSave = vi.fn(async () => {
      throw { status: 422, message: 'Datele nu sunt valide.', fieldErrors: { street: ['Strada este prea lungă.'], city_id: ['Localitatea nu aparține județului.', 'a doua'], first_name: ['Prenumele conține caractere nepermise.'] } };
    });
    const { user } = setup({ initial: FULL, onSave, withPlaceOfBirth: true });
    await user.click(saveButton());

    const errors = await screen.findAllByRole('alert');
    expect(errors.map((e) => e.textContent)).toEqual(['Prenumele conține caractere nepermise.', 'Localitatea nu aparține județului.', 'Strada este prea lungă.']);
    const describedBy = (el: HTMLElement) => (el.getAttribute('aria-describedby') ?? '').split(' ');
    expect(describedBy(field(t('steps:address.firstName')))).toContain(errors[0].id);
    expect(describedBy(picker(t('steps:address.city')))).toContain(errors[1].id);
    expect(describedBy(field(t('steps:address.street')))).toContain(errors[2].id);
    expect(field(t('steps:address.street')).getAttribute('aria-invalid')).toBe('true');
    expect(screen.queryByText('a doua')).toBeNull();
    expect(screen.queryByText('Datele nu sunt valide.')).toBeNull(); // every error has its field
    expect(scrolled).toEqual([field(t('steps:address.firstName')).id]);
    expect(document.activeElement).toBe(field(t('steps:address.firstName')));

    await user.type(field(t('steps:address.street')), 'a');
    expect(screen.queryByText('Strada este prea lungă.')).toBeNull();
    expect(field(t('steps:address.street')).getAttribute('aria-invalid')).toBeNull();
    await waitFor(() => expect(screen.getByText('Prenumele conține caractere nepermise.')).toBeTruthy());
    await waitFor(() => expect(screen.getByText('Localitatea nu aparține județului.')).toBeTruthy());
    scrollSpy.mockRestore();
  });

  it('shows errors of fields it does not show, and other failures, in an alert', async () => {
    const onSave = vi
      .fn<(values: AddressValues) => Promise<void>>()
      .mockRejectedValueOnce({ fieldErrors: { place_of_birth: ['Locul nașterii este obligatoriu.'] } })
      .mockRejectedValueOnce(new Error('Serviciul nu răspunde.'))
      .mockResolvedValueOnce(undefined);
    const { user } = setup({ initial: FULL, onSave });
    await user.click(saveButton());
    expect((await screen.findByRole('alert')).textContent).toContain('Locul nașterii este obligatoriu.');
    await user.click(saveButton());
    await waitFor(() => expect(screen.getByRole('alert').textContent).toContain('Serviciul nu răspunde.'));
    await user.click(saveButton());
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
    expect(onSave).toHaveBeenCalledTimes(3);
  });

  it('disables "Salvează" while saving, and offers "Renunță"', async () => {
    let finish!: () => void;
    const onSave = vi.fn(() => new Promise<void>((resolve) => (finish = resolve)));
    const onCancel = vi.fn();
    const { user } = setup({ initial: FULL, onSave, onCancel });
    await user.click(saveButton());
    const busy = await screen.findByRole('button', { name: textPattern(t('steps:address.saving')) });
    expect(isDisabled(busy)).toBe(true);
    await user.click(busy);
    expect(onSave).toHaveBeenCalledTimes(1);
    finish();
    await waitFor(() => expect(isDisabled(saveButton())).toBe(false));
    await user.click(await screen.findByRole('button', { name: t('steps:address.cancel') }));
    expect(onCancel).toHaveBeenCalledTimes(1);
  });

  it('saves on Enter in a text field without submitting a surrounding form', async () => {
    const onSubmit = vi.fn((e: SubmitEvent) => e.preventDefault());
    const places = spyPlaces();
    const onSave = vi.fn(async () => {});
    const user = userEvent.setup({ delay: null });
    renderUi(
      <form onSubmit={(e) => onSubmit(e.nativeEvent as SubmitEvent)}>
        <AddressForm initial={FULL} places={places} t={t} onSave={onSave} />
        <button type="submit">Trimite pasul</button>
      </form>,
    );
    await user.type(field(t('steps:address.floor')), '{Enter}');
    expect(onSave).toHaveBeenCalledTimes(1);
    fireEvent.keyDown(picker(t('steps:address.county')), { key: 'Enter' });
    await user.type(picker(t('steps:address.county')), '{Enter}');
    expect(onSubmit).not.toHaveBeenCalled();
    await waitFor(() => expect(within(document.body).getByRole('button', { name: 'Trimite pasul' })).toBeTruthy());
  });
});
