import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Wizard } from '@/engine/Wizard';
import type { EngineApi } from '@/engine/api';
import type { RegistrationRequest } from '@/core/api-types';
import type { CaenCode, CaenService, OverviewData, OverviewUpdate, Profile } from '../../widgets/types';
import { fakeServices, location, renderAt, request, stepText, t } from '../engine/render';
import { localePattern, textStart } from '../copy';
import { sleep } from './helpers';

// The step's field by its flow name, whether or not widgets/registry.ts lists it yet.
vi.mock('../../widgets/registry', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../widgets/registry')>();
  const { default: OverviewField } = await import('../../widgets/overview/OverviewField');
  return { ...original, fields: { ...original.fields, overview: OverviewField } };
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const STEP = 'requesting-company-step-7';
const PROFILE: Profile = { first_name: 'Ana', last_name: 'Popescu', personal_code: '2850101400019' };

/** CAEN Rev.3 classes (ids carry the revision: 30000 + the code, server/db/caen.ts), with the old Rev.2 codes they replace. */
const CODES: CaenCode[] = [
  { id: 36210, code: '6210', name: 'Activități de realizare a soft-ului la comandă (software orientat client)', replaces: ['6201'] },
  { id: 36220, code: '6220', name: 'Activități de consultanță în tehnologia informației și de management (gestiune și exploatare) a mijloacelor de calcul', replaces: ['6202', '6203'] },
  { id: 36290, code: '6290', name: 'Alte activități de servicii privind tehnologia informației', replaces: ['6209'] },
  { id: 37412, code: '7412', name: 'Design grafic și activități de comunicare vizuală', replaces: ['7410'] },
  { id: 37311, code: '7311', name: 'Activități ale agențiilor de publicitate' },
  { id: 38291, code: '8291', name: 'Activități ale agențiilor de colectare și a birourilor (oficiilor) de raportare a creditului' },
  { id: 36619, code: '6619', name: 'Activități auxiliare intermedierilor financiare, exceptând activități de asigurări și fonduri de pensii' },
];
const fold = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
const withPrimary = (codes: CaenCode[]) => codes.map((c, i) => ({ ...c, is_primary: (i === 0 ? 1 : 0) as 0 | 1 }));

/** A CAEN service over CODES that saves in memory; `refuse` makes the next update fail with field errors. */
function fakeCaen(initial: CaenCode[] = []) {
  const state = { codes: initial, profile: { ...PROFILE }, refuse: null as null | Record<string, string[]> };
  const caen = {
    search: vi.fn(async (term: string, offset: number, size: number) => {
      // As the server answers: by the code's digits, by an old Rev.2 code it replaces, or by words.
      const data = CODES.filter((c) => c.code.startsWith(term) || c.replaces?.some((old) => old.startsWith(term)) || fold(c.name).includes(fold(term)));
      return { data: data.slice(offset, offset + size), total: data.length };
    }),
    overview: vi.fn(async (): Promise<OverviewData> => ({
      company_name: null,
      activity: 'consultanta-it',
      codes: withPrimary(state.codes),
      email: 'ana@exemplu.ro',
      phone: '0712345678',
      editable: true,
    })),
    updateFormData: vi.fn(async (values: OverviewUpdate) => {
      if (state.refuse) {
        const fieldErrors = state.refuse;
        state.refuse = null;
        throw { status: 422, message: Object.values(fieldErrors)[0][0], fieldErrors };
      }
      if (values.codes) state.codes = values.codes.map((id) => CODES.find((c) => c.id === id)!);
      const { codes: _codes, ...profile } = values;
      void _codes;
      state.profile = { ...state.profile, ...profile };
      return { profile: state.profile, codes: withPrimary(state.codes) };
    }),
    markAsLost: vi.fn(async () => undefined),
    officeServices: vi.fn(async () => [
      { id: 'portal-onrc', name: 'Portalul ONRC', description: 'Depui singur cererea.', url: 'https://portal.onrc.ro' },
      { id: 'contabil-ceccar', name: 'Un expert contabil CECCAR', description: null, url: 'https://www.ceccar.ro' },
    ]),
  } satisfies CaenService;
  return { caen, state };
}

function setup(options: { codes?: CaenCode[]; partner?: { slug: string; is_unaffiliated: boolean; name: string } } = {}) {
  const { caen, state } = fakeCaen(options.codes);
  const posts: { url: string; body: unknown }[] = [];
  const current = (): RegistrationRequest => ({ ...request(STEP, {}, options.partner), profile: state.profile as Record<string, unknown> });
  const api: EngineApi = {
    get: vi.fn(async () => current()) as EngineApi['get'],
    post: vi.fn(async (url: string, body?: unknown) => {
      posts.push({ url, body });
      if (url === '/api/registration/send') return request('requesting-company-step-8');
      throw new Error(`unexpected POST ${url}`);
    }) as EngineApi['post'],
  };
  const notify = vi.fn();
  const onRedirect = vi.fn();
  const user = userEvent.setup({ delay: null });
  renderAt('/infiintare-pfa/7', <Wizard registrationType={2} api={api} services={fakeServices({ caen, notify })} onRedirect={onRedirect} />);
  return { caen, state, posts, user, notify, onRedirect };
}

async function shown() {
  expect(await screen.findByRole('heading', { name: t('steps:overview.title') })).toBeTruthy();
  await screen.findByTestId('overview');
  await waitFor(() => expect(screen.getByText('0712345678')).toBeTruthy());
}

const next = () => screen.getByRole('button', { name: stepText('requesting-company-step-7', 'submit') }) as HTMLButtonElement;

describe('overview step (flows/new-pfa.json step 7)', () => {
  it('a code still in CAEN Rev.2 that split is named as such, with its Rev.3 classes to choose from (issue 31)', async () => {
    const split: CaenCode = {
      id: 27410,
      code: '7410',
      name: 'Activități de design specializat',
      replaced_by: [
        { id: 37411, code: '7411', name: 'Activități de design industrial și de modă' },
        { id: 37412, code: '7412', name: 'Design grafic și activități de comunicare vizuală' },
      ],
    };
    const { user, caen, state } = setup({ codes: [split, CODES[4]] });
    await shown();
    const group = await screen.findByRole('group', { name: t('steps:overview.splitTitle', { code: '7410' }) });
    expect(within(group).getByText(t('steps:overview.splitChoose'))).toBeTruthy();
    await user.click(within(group).getByRole('button', { name: /^7412 – Design grafic/ }));
    await waitFor(() => expect(caen.updateFormData).toHaveBeenCalledWith({ codes: [37412, CODES[4].id] }));
    expect(state.codes.map((c) => c.code)).toEqual(['7412', '7311']);
    await waitFor(() => expect(screen.queryByRole('group', { name: t('steps:overview.splitTitle', { code: '7410' }) })).toBeNull());
  });

  it('shows the PFA name, names, CNP, phone and e-mail; office at the product by default; next sends address_type', async () => {
    const { user, posts } = setup({ codes: [CODES[0]] });
    await shown();
    await waitFor(() => expect(screen.getByText('PFA Popescu Ana')).toBeTruthy());
    await waitFor(() => expect(screen.getByText('2850101400019')).toBeTruthy());
    await waitFor(() => expect(screen.getByText('ana@exemplu.ro')).toBeTruthy());
    await waitFor(() => expect(screen.getByRole('button', { name: `${t('steps:overview.edit')} ${t('steps:overview.lastName')}` })).toBeTruthy());
    expect(screen.queryByRole('button', { name: `${t('steps:overview.edit')} ${t('steps:overview.phone')}` })).toBeNull();
    const product = await screen.findByRole('radio', { name: textStart(t('steps:overview.officeProduct')) }) as HTMLInputElement;
    await waitFor(() => expect(product.checked).toBe(true));
    await waitFor(() => expect(next().disabled).toBe(false));
    await user.click(next());
    await waitFor(() => expect(posts).toHaveLength(1));
    expect(posts[0]).toEqual({ url: '/api/registration/send', body: { address_type: 1, current_step_identifier: STEP } });
  });

  it('edits the CNP inline: the server error shows under the field, then a valid one is saved', async () => {
    const { user, state, caen } = setup({ codes: [CODES[0]] });
    await shown();
    await user.click(await screen.findByRole('button', { name: `${t('steps:overview.edit')} ${t('steps:overview.personalCode')}` }));
    const input = await screen.findByRole('textbox', { name: t('steps:overview.personalCode') }) as HTMLInputElement;
    expect(input.value).toBe('2850101400019');
    await user.clear(input);
    await user.type(input, '1900515125807');
    state.refuse = { personal_code: ['CNP-ul nu este valid: cifra de control nu corespunde.'] };
    await user.click(await screen.findByRole('button', { name: t('steps:overview.save') }));
    const error = await screen.findByText('CNP-ul nu este valid: cifra de control nu corespunde.');
    expect(error.getAttribute('role')).toBe('alert');
    expect(input.getAttribute('aria-describedby')).toBe(error.id);
    expect(caen.updateFormData).toHaveBeenLastCalledWith({ personal_code: '1900515125807' });

    await user.clear(input);
    await user.type(input, '1900515125806');
    await user.click(await screen.findByRole('button', { name: t('steps:overview.save') }));
    const row = await screen.findByTestId('overview-personal_code');
    await waitFor(() => expect(within(row).getByRole('status').textContent).toBe(t('steps:overview.saved')));
    await waitFor(() => expect(within(row).getByText('1900515125806')).toBeTruthy());
    expect(state.profile.personal_code).toBe('1900515125806');
  });

  it('searches CAEN codes only from 3 characters (after the debounce) and saves the chosen primary code', async () => {
    const { user, caen, state } = setup();
    await shown();
    const input = await screen.findByRole('combobox', { name: t('steps:overview.primary') });
    await user.click(input);
    await user.type(input, '62');
    await sleep(450);
    expect(caen.search).not.toHaveBeenCalled();
    expect(screen.queryByRole('option')).toBeNull();
    await user.type(input, '0');
    const option = await screen.findByRole('option', { name: /^6210 – Activități de realizare/ });
    expect(caen.search).toHaveBeenCalledTimes(1);
    expect(caen.search).toHaveBeenCalledWith('620', 0, 25);
    await waitFor(() => expect(screen.getAllByRole('option')).toHaveLength(3));
    await user.click(option);
    await waitFor(() => expect(caen.updateFormData).toHaveBeenCalledWith({ codes: [36210] }));
    expect(state.codes.map((c) => c.code)).toEqual(['6210']);
    expect(await screen.findByText(t('steps:overview.saved'))).toBeTruthy();
  });

  it('keeps the last CAEN answer listed and choosable while a longer search loads', async () => {
    const { user, caen } = setup();
    await shown();
    const input = await screen.findByRole('combobox', { name: t('steps:overview.primary') });
    await user.click(input);
    await user.type(input, '620');
    await screen.findByRole('option', { name: /^6210 – / });
    // The next search hangs until the test lets it answer.
    const all = caen.search.getMockImplementation()!;
    let answer: (() => void) | null = null;
    caen.search.mockImplementation((term, offset, size) => new Promise((resolve) => (answer = () => resolve(all(term, offset, size)))));
    await user.type(input, '1');
    await waitFor(() => expect(caen.search).toHaveBeenLastCalledWith('6201', 0, 25));
    await waitFor(() => expect(screen.getByText(t('steps:overview.searchLoading'))).toBeTruthy());
    expect(screen.getAllByRole('option').map((o) => o.textContent?.slice(0, 4))).toEqual(['6210', '6220', '6290']);
    await user.click(await screen.findByRole('option', { name: /^6210 – / }));
    await waitFor(() => expect(caen.updateFormData).toHaveBeenCalledWith({ codes: [36210] }));
    answer!();
  });

  it('asks for a primary code before a secondary one; the primary row cannot be deleted, secondary rows can', async () => {
    const { user, caen } = setup();
    await shown();
    await user.click(await screen.findByRole('button', { name: t('steps:overview.addSecondary') }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe(t('steps:overview.secondaryNeedsPrimary')));
    expect(screen.queryByRole('combobox', { name: t('steps:overview.secondary', { n: 1 }) })).toBeNull();
    expect(caen.updateFormData).not.toHaveBeenCalled();
    cleanup();

    const second = setup({ codes: [CODES[3], CODES[4]] });
    await shown();
    const primary = await screen.findByTestId('caen-row-0');
    expect(within(primary).queryByRole('button', { name: localePattern('steps:overview.removeCode') })).toBeNull();
    const secondary = await screen.findByTestId('caen-row-1');
    await second.user.click(await within(secondary).findByRole('button', { name: t('steps:overview.removeCode', { code: '7311' }) }));
    await waitFor(() => expect(second.caen.updateFormData).toHaveBeenCalledWith({ codes: [37412] }));
    expect(screen.queryByTestId('caen-row-1')).toBeNull();

    await second.user.click(await screen.findByRole('button', { name: t('steps:overview.addSecondary') }));
    const input = await screen.findByRole('combobox', { name: t('steps:overview.secondary', { n: 1 }) });
    await second.user.click(input);
    await second.user.type(input, 'publicitate');
    await second.user.click(await screen.findByRole('option', { name: /^7311 –/ }));
    await waitFor(() => expect(second.caen.updateFormData).toHaveBeenLastCalledWith({ codes: [37412, 37311] }));
  });

  it('a refused code change shows the server message and keeps the saved codes', async () => {
    const { user, state } = setup({ codes: [CODES[3], CODES[4]] });
    await shown();
    state.refuse = { codes: ['Poți alege cel mult 5 coduri CAEN.'] };
    await user.click(within(screen.getByTestId('caen-row-1')).getByRole('button', { name: t('steps:overview.removeCode', { code: '7311' }) }));
    expect((await screen.findByRole('alert')).textContent).toBe('Poți alege cel mult 5 coduri CAEN.');
    await waitFor(() => expect(screen.getByTestId('caen-row-1')).toBeTruthy());
  });

  it('credit partner: 8291 and 6619 are preset first and locked', async () => {
    const { caen, state } = setup({ codes: [CODES[3]], partner: { slug: 'icredit', is_unaffiliated: false, name: 'iCredit' } });
    await shown();
    await waitFor(() => expect(caen.updateFormData).toHaveBeenCalledWith({ codes: [38291, 36619, 37412] }));
    expect(state.codes.map((c) => c.code)).toEqual(['8291', '6619', '7412']);
    const primary = await screen.findByTestId('caen-row-0');
    await waitFor(() => expect(within(primary).getByText(/^8291 –/)).toBeTruthy());
    expect(within(primary).queryByRole('combobox')).toBeNull();
    await waitFor(() => expect(within(screen.getByTestId('caen-row-1')).queryByRole('button', { name: localePattern('steps:overview.removeCode') })).toBeNull());
    await waitFor(() => expect(within(screen.getByTestId('caen-row-2')).getByRole('button', { name: t('steps:overview.removeCode', { code: '7412' }) })).toBeTruthy());
    await waitFor(() => expect(screen.getAllByText(t('steps:overview.lockedCode'))).toHaveLength(2));
  });

  it('credit partner: the preset on arrival is not an edit, so no "Informațiile au fost modificate." toast', async () => {
    const { caen, notify } = setup({ partner: { slug: 'icredit', is_unaffiliated: false, name: 'iCredit' } });
    await shown();
    await waitFor(() => expect(caen.updateFormData).toHaveBeenCalledWith({ codes: [38291, 36619] }));
    await waitFor(() => expect(within(screen.getByTestId('caen-row-0')).getByText(/^8291 –/)).toBeTruthy());
    await sleep(50);
    expect(notify).not.toHaveBeenCalled();
    expect(screen.queryByText(t('steps:overview.saved'))).toBeNull();
  });

  it('credit partner: "Pasul următor" waits for the preset codes\' save and says so; enabled once it is saved', async () => {
    const { caen } = setup({ codes: [CODES[3]], partner: { slug: 'icredit', is_unaffiliated: false, name: 'iCredit' } });
    // The save of the preset is held until the test lets it through (a slow network).
    const saveNow = caen.updateFormData.getMockImplementation()!;
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    caen.updateFormData.mockImplementationOnce(async (values) => {
      await held;
      return saveNow(values);
    });
    await shown();
    // The locked codes already show, but the send would race their write: next waits, and says why.
    await waitFor(() => expect(within(screen.getByTestId('caen-row-0')).getByText(/^8291 –/)).toBeTruthy());
    const reason = await screen.findByText(t('steps:overview.savingCodes'));
    expect(next().disabled).toBe(true);
    expect(next().getAttribute('aria-describedby')).toBe(reason.id);
    release();
    await waitFor(() => expect(next().disabled).toBe(false));
    expect(screen.queryByText(t('steps:overview.savingCodes'))).toBeNull();
    expect(caen.updateFormData).toHaveBeenCalledWith({ codes: [38291, 36619, 37412] });
  });

  it('"Pasul următor" waits for a primary code and says why (aria-describedby); choosing one enables it', async () => {
    const { user } = setup();
    await shown();
    await waitFor(() => expect(next().disabled).toBe(true));
    const reason = await screen.findByText(t('steps:overview.nextNeedsPrimary'));
    expect(next().getAttribute('aria-describedby')).toBe(reason.id);
    const input = await screen.findByRole('combobox', { name: t('steps:overview.primary') });
    await user.click(input);
    await user.type(input, '7412');
    await user.click(await screen.findByRole('option', { name: /^7412 – / }));
    await waitFor(() => expect(next().disabled).toBe(false));
    expect(screen.queryByText(t('steps:overview.nextNeedsPrimary'))).toBeNull();
    expect(next().getAttribute('aria-describedby')).toBeNull();
  });

  it('office at home: the popup explains the rule; keeping it returns to the product office', async () => {
    const { user, caen } = setup({ codes: [CODES[0]] });
    await shown();
    await user.click(await screen.findByRole('radio', { name: t('steps:overview.officeHome') }));
    const dialog = await screen.findByRole('alertdialog');
    await waitFor(() => expect(within(dialog).getByText(t('steps:overview.homeDialogTitle'))).toBeTruthy());
    await user.click(await within(dialog).findByRole('button', { name: t('steps:overview.keepOffice') }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    await waitFor(() => expect((screen.getByRole('radio', { name: textStart(t('steps:overview.officeProduct')) }) as HTMLInputElement).checked).toBe(true));
    expect(caen.markAsLost).not.toHaveBeenCalled();
  });

  it('office at home: the popup offers two services; choosing one marks the request lost (sediu-la-client) and leaves for its site', async () => {
    const { user, caen, onRedirect } = setup({ codes: [CODES[0]] });
    await shown();
    await user.click(await screen.findByRole('radio', { name: t('steps:overview.officeHome') }));
    const dialog = await screen.findByRole('alertdialog');
    const list = await within(dialog).findByRole('list', { name: t('steps:overview.servicesLabel') });
    expect(within(list).getAllByRole('listitem')).toHaveLength(2);
    expect(within(list).getByText('Depui singur cererea.')).toBeTruthy();
    expect(within(dialog).queryByRole('button', { name: t('steps:overview.leave') })).toBeNull();
    await user.click(within(list).getByRole('button', { name: t('steps:overview.goToService', { name: 'Un expert contabil CECCAR' }) }));
    await waitFor(() => expect(onRedirect).toHaveBeenCalledWith('https://www.ceccar.ro'));
    expect(caen.markAsLost).toHaveBeenCalledWith('sediu-la-client');
    // Never the questionnaire's dead-end page.
    expect(location()).toBe('/infiintare-pfa/7');
  });

  it('office at home: when marking the request lost fails, the applicant stays, with the reason', async () => {
    const { user, caen, onRedirect } = setup({ codes: [CODES[0]] });
    caen.markAsLost.mockRejectedValueOnce(new Error('offline'));
    await shown();
    await user.click(await screen.findByRole('radio', { name: t('steps:overview.officeHome') }));
    const dialog = await screen.findByRole('alertdialog');
    await user.click(await within(dialog).findByRole('button', { name: t('steps:overview.goToService', { name: 'Portalul ONRC' }) }));
    expect(await within(dialog).findByText(t('steps:overview.leaveError'))).toBeTruthy();
    expect(onRedirect).not.toHaveBeenCalled();
  });
});
