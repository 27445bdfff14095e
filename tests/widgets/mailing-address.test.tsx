import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Wizard } from '@/engine/Wizard';
import type { EngineApi } from '@/engine/api';
import type { RegistrationRequest } from '@/core/api-types';
import type { MailingAddress, MailingAddressValues, Profile } from '../../widgets/types';
import { fakeDossier, fakeServices, renderAt, request, stepText, t } from '../engine/render';
import { textStart } from '../copy';
import { choose } from './helpers';

// The step's field by its flow name, whether or not widgets/registry.ts lists it yet.
vi.mock('../../widgets/registry', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../widgets/registry')>();
  const { default: MailingAddressField } = await import('../../widgets/mailing-address/MailingAddressField');
  return { ...original, fields: { ...original.fields, mailingAddress: MailingAddressField } };
});

afterEach(cleanup);

const STEP = 'requesting-company-step-6';

const PROFILE: Profile = {
  first_name: 'Ana',
  last_name: 'Popescu',
  county_id: 12,
  county: 'Cluj',
  city_id: 1201,
  city: 'Cluj-Napoca',
  street: 'Memorandumului',
  number: '28',
  address_1: 'Str. Memorandumului nr. 28',
  address_2: 'Cluj-Napoca, județul Cluj',
};

const SAVED: MailingAddress = {
  contact_first_name: 'Ion',
  contact_last_name: 'Ionescu',
  contact_phone: '0722123456',
  county_id: 40,
  city_id: 4001,
  county: 'București',
  city: 'Sector 1',
  postal_code: '010101',
  street: 'Calea Victoriei',
  number: '12',
  building: 'A',
  entrance: null,
  floor: '2',
  apartment: '7',
};

/** An engine API over one request (profile and saved mailing address set by the test); records the POSTs. */
function setup(options: { profile?: Profile; address?: MailingAddress | null; formData?: Record<string, unknown>; refuse?: string } = {}) {
  const state = { profile: options.profile ?? PROFILE, address: options.address ?? null };
  const posts: { url: string; body: unknown }[] = [];
  const current = (): RegistrationRequest => ({
    ...request(STEP, options.formData ?? {}),
    profile: state.profile as Record<string, unknown>,
    mailing_address: state.address ?? null,
  });
  const api: EngineApi = {
    get: vi.fn(async () => current()) as EngineApi['get'],
    post: vi.fn(async (url: string, body?: unknown) => {
      posts.push({ url, body });
      if (url === '/api/registration/collect/mailing-address-type') {
        if (options.refuse) throw { status: 422, message: 'Datele trimise nu sunt valide.', fieldErrors: { mailing_address_type: [options.refuse] } };
        return request('requesting-company-step-7');
      }
      throw new Error(`unexpected POST ${url}`);
    }) as EngineApi['post'],
  };
  const dossier = fakeDossier();
  dossier.saveMailingAddress = vi.fn(async (values: MailingAddressValues) => {
    const saved: MailingAddress = { ...values, county_id: values.county_id!, city_id: values.city_id!, county: 'Cluj', city: 'Turda' };
    state.address = saved;
    return saved;
  });
  const user = userEvent.setup({ delay: null });
  renderAt(`/infiintare-pfa/6`, <Wizard registrationType={2} api={api} services={fakeServices({ dossier })} />);
  return { api, posts, dossier, user, state };
}

const next = () => screen.getByRole('button', { name: stepText('requesting-company-step-6', 'submit') }) as HTMLButtonElement;
const idCard = () => screen.getByRole('radio', { name: textStart(t('steps:mailingAddress.idCard')) }) as HTMLInputElement;
const custom = () => screen.getByRole('radio', { name: textStart(t('steps:mailingAddress.custom')) }) as HTMLInputElement;
const field = (name: string) => screen.getByRole('textbox', { name }) as HTMLInputElement;

async function shown() {
  expect(await screen.findByRole('heading', { name: t('steps:mailingAddress.title') })).toBeTruthy();
  await screen.findByTestId('mailing-address');
}

describe('mailing-address step (flows/new-pfa.json step 6)', () => {
  it('offers the ID card address (with its lines) or another address; next waits for a choice', async () => {
    const { user, posts } = setup();
    await shown();
    expect(idCard().checked).toBe(false);
    expect(custom().checked).toBe(false);
    expect(idCard().disabled).toBe(false);
    const option = idCard().closest('label')!;
    await waitFor(() => expect(within(option).getByText('Str. Memorandumului nr. 28')).toBeTruthy());
    await waitFor(() => expect(within(option).getByText('Cluj-Napoca, județul Cluj')).toBeTruthy());
    expect(next().disabled).toBe(true);

    await user.click(idCard());
    await waitFor(() => expect(next().disabled).toBe(false));
    expect(idCard().checked).toBe(true);
    expect(screen.queryByRole('group', { name: t('steps:mailingAddress.formTitle') })).toBeNull(); // no form
    await user.click(next());
    await waitFor(() => expect(posts).toHaveLength(1));
    expect(posts[0]).toEqual({
      url: '/api/registration/collect/mailing-address-type',
      body: { mailing_address_type: 'id_card_address', current_step_identifier: STEP },
    });
  });

  it('another address: the form starts from the profile names; saving it reloads the request and selects it', async () => {
    const { user, posts, dossier, api } = setup();
    await shown();
    await user.click(custom());
    const form = await screen.findByRole('group', { name: t('steps:mailingAddress.formTitle') });
    await waitFor(() => expect(screen.getByText(t('steps:mailingAddress.saveFirst'))).toBeTruthy());
    expect(next().disabled).toBe(true); // nothing saved yet
    expect(field(t('steps:mailingAddress.contactFirstName')).value).toBe('Ana');
    expect(field(t('steps:mailingAddress.contactLastName')).value).toBe('Popescu');
    expect(field(t('steps:mailingAddress.contactPhone')).value).toBe('');
    expect(screen.queryByRole('button', { name: t('steps:address.cancel') })).toBeNull();

    await user.type(field(t('steps:mailingAddress.contactPhone')), '0722123456');
    await choose(user, screen.getByRole('combobox', { name: textStart(t('steps:address.county')) }), 'Clu', 'Cluj');
    await choose(user, screen.getByRole('combobox', { name: textStart(t('steps:address.city')) }), 'Tur', 'Turda');
    await user.type(field(t('steps:address.street')), 'Republicii');
    await user.type(field(t('steps:address.number')), '10');
    await user.type(field(t('steps:address.postalCode')), '401000');
    const gets = vi.mocked(api.get).mock.calls.length;
    await user.click(await within(form).findByRole('button', { name: t('steps:address.save') }));

    await waitFor(() => expect(screen.getByTestId('mailing-address-saved')).toBeTruthy());
    expect(dossier.saveMailingAddress).toHaveBeenCalledWith({
      contact_first_name: 'Ana',
      contact_last_name: 'Popescu',
      contact_phone: '0722123456',
      county_id: 12,
      city_id: 1202,
      street: 'Republicii',
      number: '10',
      building: null,
      entrance: null,
      floor: null,
      apartment: null,
      postal_code: '401000',
    });
    expect(vi.mocked(api.get).mock.calls.length).toBe(gets + 1); // reloadRequest
    const saved = await screen.findByTestId('mailing-address-saved');
    await waitFor(() => expect(within(saved).getByText(t('steps:mailingAddress.contactName', { name: 'Popescu Ana' }))).toBeTruthy());
    await waitFor(() => expect(within(saved).getByText('Republicii, nr. 10, Cluj, Turda')).toBeTruthy());
    await waitFor(() => expect(within(saved).getByRole('status').textContent).toBe(t('steps:mailingAddress.saved')));
    expect(custom().checked).toBe(true);
    await waitFor(() => expect(next().disabled).toBe(false));

    await user.click(next());
    await waitFor(() => expect(posts).toHaveLength(1));
    expect(posts[0].body).toEqual({ mailing_address_type: 'custom_address', current_step_identifier: STEP });
  });

  it('shows the saved address chosen before, with an edit button that opens the form filled with it', async () => {
    const { user, dossier } = setup({ address: SAVED, formData: { mailing_address_type: 'custom_address' } });
    await shown();
    expect(custom().checked).toBe(true);
    const saved = await screen.findByTestId('mailing-address-saved');
    await waitFor(() => expect(within(saved).getByText('Calea Victoriei, nr. 12, bl. A, et. 2, ap. 7, București, Sector 1')).toBeTruthy());
    await waitFor(() => expect(within(saved).getByText(t('steps:mailingAddress.contactName', { name: 'Ionescu Ion' }))).toBeTruthy());
    await waitFor(() => expect(within(saved).getByText(t('steps:mailingAddress.contactPhoneShown', { phone: '0722123456' }))).toBeTruthy());
    await waitFor(() => expect(next().disabled).toBe(false));

    await user.click(await within(saved).findByRole('button', { name: t('steps:mailingAddress.edit') }));
    expect(field(t('steps:mailingAddress.contactFirstName')).value).toBe('Ion');
    expect(field(t('steps:address.street')).value).toBe('Calea Victoriei');
    await waitFor(() => expect((screen.getByRole('combobox', { name: textStart(t('steps:address.county')) }) as HTMLInputElement).value).toBe('București'));
    await waitFor(() => expect((screen.getByRole('combobox', { name: textStart(t('steps:address.city')) }) as HTMLInputElement).value).toBe('Sector 1'));
    expect(field(t('steps:mailingAddress.contactPhone')).value).toBe('0722123456');

    await user.click(await screen.findByRole('button', { name: t('steps:address.cancel') }));
    await waitFor(() => expect(screen.getByTestId('mailing-address-saved')).toBeTruthy());
    await user.click(await screen.findByRole('button', { name: t('steps:mailingAddress.edit') }));
    await user.clear(field(t('steps:address.street')));
    await user.type(field(t('steps:address.street')), 'Bd. Magheru');
    await user.click(await screen.findByRole('button', { name: t('steps:address.save') }));
    await waitFor(() => expect(dossier.saveMailingAddress).toHaveBeenCalledTimes(1));
    expect(vi.mocked(dossier.saveMailingAddress).mock.calls[0][0]).toMatchObject({ street: 'Bd. Magheru', county_id: 40, city_id: 4001, entrance: null });
    expect(await screen.findByText(t('steps:mailingAddress.saved'))).toBeTruthy();
  });

  it('shows the server field errors under their fields and keeps next disabled', async () => {
    const { user, dossier } = setup();
    dossier.saveMailingAddress = vi.fn(async () => {
      throw {
        status: 422,
        message: 'Datele trimise nu sunt valide.',
        fieldErrors: { contact_phone: ['Numărul de telefon trebuie să aibă formatul 07xxxxxxxx.'], city_id: ['Localitatea aleasă nu este în județul ales.'] },
      };
    });
    await shown();
    await user.click(custom());
    // The address form opens after the choice: wait for it as the applicant does.
    await screen.findByRole('group', { name: t('steps:mailingAddress.formTitle') });
    await user.type(field(t('steps:mailingAddress.contactPhone')), '021');
    await choose(user, screen.getByRole('combobox', { name: textStart(t('steps:address.county')) }), 'Clu', 'Cluj');
    await choose(user, screen.getByRole('combobox', { name: textStart(t('steps:address.city')) }), 'Tur', 'Turda');
    await user.type(field(t('steps:address.street')), 'Republicii');
    await user.type(field(t('steps:address.number')), '10');
    await user.click(await screen.findByRole('button', { name: t('steps:address.save') }));

    const phoneError = await screen.findByText('Numărul de telefon trebuie să aibă formatul 07xxxxxxxx.');
    expect(field(t('steps:mailingAddress.contactPhone')).getAttribute('aria-describedby')).toContain(phoneError.id);
    await waitFor(() => expect(screen.getByText('Localitatea aleasă nu este în județul ales.')).toBeTruthy());
    expect(screen.queryByTestId('mailing-address-saved')).toBeNull();
    expect(next().disabled).toBe(true);
  });

  it("shows the step's server error under the choice", async () => {
    const { user } = setup({ refuse: 'Nu avem adresa din buletinul tău.' });
    await shown();
    await user.click(idCard());
    await waitFor(() => expect(next().disabled).toBe(false));
    await user.click(next());
    const errors = await screen.findAllByText('Nu avem adresa din buletinul tău.');
    expect(errors.length).toBeGreaterThan(0);
    await waitFor(() => expect(screen.getByRole('radiogroup').getAttribute('aria-describedby')).toContain(errors[0].id));
    expect(next().disabled).toBe(true);
    await user.click(custom());
    await waitFor(() => expect(screen.queryAllByText('Nu avem adresa din buletinul tău.')).toHaveLength(0));
  });

  it('without a home address the ID card option cannot be chosen', async () => {
    setup({ profile: { first_name: 'Ana', last_name: 'Popescu' } });
    await shown();
    expect(idCard().disabled).toBe(true);
    await waitFor(() => expect(screen.getByText(t('steps:mailingAddress.idCardMissing'))).toBeTruthy());
  });

  it('drops a stored choice of another address when none is saved', async () => {
    setup({ formData: { mailing_address_type: 'custom_address' } });
    await shown();
    expect(custom().checked).toBe(true);
    expect(await screen.findByRole('group', { name: t('steps:mailingAddress.formTitle') })).toBeTruthy();
    await waitFor(() => expect(next().disabled).toBe(true));
  });
});
