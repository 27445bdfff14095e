import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Wizard } from '@/engine/Wizard';
import type { EngineApi } from '@/engine/api';
import { fakeDossier, fakeServices, renderAt, request, stepText, t } from '../engine/render';
import { textStart } from '../copy';
import { choose } from './helpers';

// The step's field by its flow name, whether or not widgets/registry.ts lists it yet.
vi.mock('../../widgets/registry', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../widgets/registry')>();
  const { default: IcreditOfficeField } = await import('../../widgets/icredit-office/IcreditOfficeField');
  return { ...original, fields: { ...original.fields, icreditOffice: IcreditOfficeField } };
});

afterEach(cleanup);

const STEP = 'requesting-company-step-6';
const ICREDIT = { slug: 'icredit', is_unaffiliated: false, name: 'iCredit' };

function setup(formData: Record<string, unknown> = {}, dossier = fakeDossier()) {
  const posts: { url: string; body: unknown }[] = [];
  const api: EngineApi = {
    get: vi.fn(async () => request(STEP, formData, ICREDIT)) as EngineApi['get'],
    post: vi.fn(async (url: string, body?: unknown) => {
      posts.push({ url, body });
      if (url === '/api/registration/collect/icredit-office') return request('requesting-company-step-7', {}, ICREDIT);
      throw new Error(`unexpected POST ${url}`);
    }) as EngineApi['post'],
  };
  const user = userEvent.setup({ delay: null });
  renderAt('/infiintare-pfa/6', <Wizard registrationType={2} api={api} services={fakeServices({ dossier })} />);
  return { posts, dossier, user };
}

const next = () => screen.getByRole('button', { name: stepText('requesting-company-step-6', 'submit') }) as HTMLButtonElement;
const county = () => screen.getByRole('combobox', { name: textStart(t('steps:mailingAddress.county')) });
const office = (name: RegExp) => screen.getByRole('radio', { name }) as HTMLInputElement;

async function shown() {
  expect(await screen.findByRole('heading', { name: t('steps:mailingAddress.titleIcredit') })).toBeTruthy();
  await screen.findByTestId('icredit-office');
}

describe('branch-office step (credit partner variant of step 6)', () => {
  it('a county, then its branch offices with their addresses; next waits for an office', async () => {
    const { user, posts, dossier } = setup();
    await shown();
    await waitFor(() => expect(screen.getByText(t('steps:mailingAddress.chooseCountyFirst'))).toBeTruthy());
    expect(screen.queryByRole('radio')).toBeNull();
    expect(next().disabled).toBe(true);

    await choose(user, county(), 'Clu', 'Cluj');
    const list = await screen.findByRole('group', { name: t('steps:mailingAddress.officesLabel') });
    expect(dossier.branchOffices).toHaveBeenCalledWith(12);
    const radios = within(list).getAllByRole('radio');
    expect(radios).toHaveLength(2);
    await waitFor(() => expect(within(list).getByText('iCredit Cluj Centru')).toBeTruthy());
    await waitFor(() => expect(within(list).getByText('Str. Memorandumului nr. 1, Cluj-Napoca')).toBeTruthy());
    await waitFor(() => expect(within(list).getByText('Str. Primăverii nr. 2, Cluj-Napoca')).toBeTruthy());
    await waitFor(() => expect(screen.getByText(t('steps:mailingAddress.officeRequired'))).toBeTruthy());
    expect(next().disabled).toBe(true);

    await user.click(office(/iCredit Cluj Mănăștur/));
    await waitFor(() => expect(next().disabled).toBe(false));
    expect(office(/iCredit Cluj Mănăștur/).checked).toBe(true);
    expect(office(/iCredit Cluj Centru/).checked).toBe(false);
    expect(screen.queryByText(t('steps:mailingAddress.officeRequired'))).toBeNull();

    await user.click(next());
    await waitFor(() => expect(posts).toHaveLength(1));
    expect(posts[0].url).toBe('/api/registration/collect/icredit-office');
    expect(posts[0].body).toMatchObject({ icredit_county_id: 12, icredit_office_id: 2, current_step_identifier: STEP });
  });

  it('says so when a county has no branch office, and another county clears the chosen office', async () => {
    const { user } = setup();
    await shown();
    await choose(user, county(), 'Clu', 'Cluj');
    await user.click(await screen.findByRole('radio', { name: /iCredit Cluj Centru/ }));
    await waitFor(() => expect(next().disabled).toBe(false));

    await choose(user, county(), 'Buc', 'București');
    expect(await screen.findByText(t('steps:mailingAddress.noOffices'))).toBeTruthy();
    expect(screen.queryByRole('radio')).toBeNull();
    await waitFor(() => expect(next().disabled).toBe(true));
  });

  it('starts from the stored county and office', async () => {
    setup({ icredit_county_id: 12, icredit_office_id: 1 });
    await shown();
    await waitFor(() => expect(office(/iCredit Cluj Centru/).checked).toBe(true));
    await waitFor(() => expect((county() as HTMLInputElement).value).toBe('Cluj'));
    await waitFor(() => expect(next().disabled).toBe(false));
  });

  it('offers a retry when the offices cannot be loaded', async () => {
    const dossier = fakeDossier();
    const working = dossier.branchOffices;
    dossier.branchOffices = vi.fn().mockRejectedValueOnce(new Error('offline')).mockImplementation(working);
    const { user } = setup({}, dossier);
    await shown();
    await choose(user, county(), 'Clu', 'Cluj');
    expect(await screen.findByText(t('steps:mailingAddress.officesError'))).toBeTruthy();
    await user.click(await screen.findByRole('button', { name: t('steps:mailingAddress.retry') }));
    expect(await screen.findByRole('radio', { name: /iCredit Cluj Centru/ })).toBeTruthy();
    expect(dossier.branchOffices).toHaveBeenCalledTimes(2);
  });

  it("shows the server's error under the office list", async () => {
    const dossier = fakeDossier();
    const posts: unknown[] = [];
    const api: EngineApi = {
      get: vi.fn(async () => request(STEP, { icredit_county_id: 12, icredit_office_id: 1 }, ICREDIT)) as EngineApi['get'],
      post: vi.fn(async (_url: string, body?: unknown) => {
        posts.push(body);
        throw { status: 422, message: 'Datele trimise nu sunt valide.', fieldErrors: { icredit_office_id: ['Alege o sucursală din listă.'] } };
      }) as EngineApi['post'],
    };
    const user = userEvent.setup({ delay: null });
    renderAt('/infiintare-pfa/6', <Wizard registrationType={2} api={api} services={fakeServices({ dossier })} />);
    await shown();
    await waitFor(() => expect(next().disabled).toBe(false));
    await user.click(next());
    const errors = await screen.findAllByText('Alege o sucursală din listă.');
    expect(errors.some((e) => screen.getByRole('radiogroup').getAttribute('aria-describedby')?.includes(e.id))).toBe(true);
    await user.click(office(/iCredit Cluj Mănăștur/));
    await waitFor(() => expect(screen.queryAllByText('Alege o sucursală din listă.')).toHaveLength(0));
    expect(posts).toHaveLength(1);
  });
});
