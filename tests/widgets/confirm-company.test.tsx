import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Wizard } from '@/engine/Wizard';
import type { RegistrationRequest } from '@/core/api-types';
import { fakeApi, fakeServices, location, renderAt, request as newRequest, stepText, t as copy } from '../engine/render';

/**
 * "Te-am găsit" (widgets/confirm-company): the firm's main CAEN code as the server read it
 * (`company.caen`, server/company/caen.ts). The browser does no CAEN logic: it shows the line and,
 * for a CAEN Rev.2 code (or one that may be read as one), the Rev.3 correspondence and the trade
 * register's procedure. Every text comes from locales/ro/steps.json (`t` of the engine's tests).
 */

afterEach(cleanup);

/** The Romanian copy of a key; a key missing from the locale file fails here (else the widget and the test would both show the key). */
function t(key: string, vars?: Record<string, unknown>): string {
  const text = copy(key, vars);
  if (text === key) throw new Error(`locales/ro/steps.json has no ${key}`);
  return text;
}

const ORDER = [1, 2, 3, 4, 5, 7, 6].map((n) => `existing-company-step-${n}`);
const STEP = 'existing-company-step-3';
const SOFTWARE = 'Activități de realizare a soft-ului la comandă (software orientat client)';

type Caen = {
  code: string;
  status: 'current' | 'previous' | 'ambiguous' | 'unknown';
  current: { code: string; name: string } | null;
  previous: { code: string; name: string } | null;
  equivalents: { code: string; name: string }[];
};

const company = (caen_code: string | null, caen: Caen | null) => ({
  fiscal_code: '42157397',
  name: 'POPESCU ION PERSOANĂ FIZICĂ AUTORIZATĂ',
  address: 'JUD. CLUJ, MUN. CLUJ-NAPOCA, STR. MEMORANDUMULUI, NR. 12, AP. 4',
  registration_number: 'F12/345/2020',
  legal_form: 'PFA',
  is_pfa: true,
  county: 'Cluj',
  city: 'Cluj-Napoca',
  caen_code,
  caen,
});

/** The existing-PFA request at "Te-am găsit" with this company, as GET /api/registration/existing/open answers it. */
function atStep3(found: ReturnType<typeof company> | null): RegistrationRequest {
  const i = ORDER.indexOf(STEP);
  return {
    ...newRequest('requesting-company-step-0'),
    registration_type: 1,
    step: STEP,
    steps: { previous: { identifier: ORDER[i - 1] }, current: { identifier: STEP, index: i }, next: { identifier: ORDER[i + 1] }, total: ORDER.length },
    company: found,
  };
}

async function show(found: ReturnType<typeof company> | null) {
  const { api, calls } = fakeApi(atStep3(found), { '/api/registration/existing/confirm/company': () => ({ ...atStep3(found), step: ORDER[3] }) });
  renderAt('/inregistrare/3', <Wizard registrationType={1} api={api} services={fakeServices()} />);
  expect(await screen.findByRole('heading', { name: t('steps:confirmCompany.title') })).toBeTruthy();
  await screen.findByTestId('company-name');
  return { calls };
}

const RETAIL_REV3 = Array.from({ length: 8 }, (_, i) => ({ code: `47${String(11 + i)}`, name: `Comerț cu amănuntul ${i + 1}` }));

describe('"Te-am găsit": the firm’s main CAEN code', () => {
  it('a CAEN Rev.2 code: the line says so, the notice gives its Rev.3 code and the ONRC procedure; confirming still works', async () => {
    const { calls } = await show(
      company('6201', { code: '6201', status: 'previous', previous: { code: '6201', name: SOFTWARE }, current: null, equivalents: [{ code: '6210', name: SOFTWARE }] }),
    );
    await waitFor(() => expect(screen.getByTestId('company-caen').textContent).toBe(t('steps:confirmCompany.caen.previous', { code: '6201', name: SOFTWARE })));
    expect(screen.getByText(t('steps:confirmCompany.caen.label'))).toBeTruthy();

    const notice = screen.getByTestId('caen-notice');
    expect(within(notice).getByText(t('steps:confirmCompany.caen.previousTitle'))).toBeTruthy();
    expect(notice.textContent).toContain(t('steps:confirmCompany.caen.previousText'));
    expect(notice.textContent).toContain(t('steps:confirmCompany.caen.procedure'));
    expect(within(notice).getByText(t('steps:confirmCompany.caen.equivalentOne', { code: '6201' }))).toBeTruthy();
    const items = within(within(notice).getByTestId('caen-equivalents')).getAllByRole('listitem');
    expect(items.map((li) => li.textContent)).toEqual([`6210 – ${SOFTWARE}`]);
    // The notice is a named region a screen reader can find.
    expect(screen.getByRole('region', { name: t('steps:confirmCompany.caen.previousTitle') })).toBe(notice);

    // The notice holds nothing back: the power of attorney, then the confirmation.
    // Each press waits for the button to take presses, as a user does (on a loaded machine the step may still be busy).
    const submit = () => screen.getByRole('button', { name: stepText(STEP, 'submit') }) as HTMLButtonElement;
    await waitFor(() => expect(submit().disabled).toBe(false));
    fireEvent.click(submit());
    expect(await screen.findByRole('heading', { name: t('steps:confirmCompany.attorney.title') })).toBeTruthy();
    await waitFor(() => expect(submit().disabled).toBe(false));
    fireEvent.click(submit());
    await waitFor(() => expect(location()).toBe('/inregistrare/4'));
    expect(calls).toEqual([{ url: '/api/registration/existing/confirm/company', body: { current_step_identifier: STEP } }]);
  });

  it('a code of both revisions with different meanings (4791): both readings, the procedure, and the many Rev.3 codes folded', async () => {
    const previous = { code: '4791', name: 'Comerț cu amănuntul prin intermediul caselor de comenzi sau prin Internet' };
    const current = { code: '4791', name: 'Intermedieri în comerțul cu amănuntul nespecializat' };
    await show(company('4791', { code: '4791', status: 'ambiguous', previous, current, equivalents: RETAIL_REV3 }));
    await waitFor(() => expect(screen.getByTestId('company-caen').textContent).toBe(t('steps:confirmCompany.caen.ambiguous', { code: '4791' })));

    const notice = screen.getByTestId('caen-notice');
    expect(within(notice).getByText(t('steps:confirmCompany.caen.ambiguousTitle'))).toBeTruthy();
    expect(notice.textContent).toContain(t('steps:confirmCompany.caen.ambiguousText', { code: '4791', previous: previous.name, current: current.name }));
    expect(notice.textContent).toContain(t('steps:confirmCompany.caen.procedure'));
    expect(within(notice).getByText(t('steps:confirmCompany.caen.equivalentMany', { code: '4791' }))).toBeTruthy();
    // Eight codes: behind a disclosure, all of them there.
    const summary = within(notice).getByText(t('steps:confirmCompany.caen.showEquivalents', { count: RETAIL_REV3.length }));
    expect(summary.tagName).toBe('SUMMARY');
    const items = within(within(notice).getByTestId('caen-equivalents')).getAllByRole('listitem', { hidden: true });
    expect(items.map((li) => li.textContent)).toEqual(RETAIL_REV3.map((e) => `${e.code} – ${e.name}`));
  });

  it('a CAEN Rev.3 code: the line with its name, no notice', async () => {
    await show(company('6210', { code: '6210', status: 'current', current: { code: '6210', name: SOFTWARE }, previous: null, equivalents: [] }));
    await waitFor(() => expect(screen.getByTestId('company-caen').textContent).toBe(t('steps:confirmCompany.caen.current', { code: '6210', name: SOFTWARE })));
    expect(screen.queryByTestId('caen-notice')).toBeNull();
  });

  it('a code of neither revision: said so, no notice; no code at all: no line', async () => {
    await show(company('9999', { code: '9999', status: 'unknown', current: null, previous: null, equivalents: [] }));
    await waitFor(() => expect(screen.getByTestId('company-caen').textContent).toBe(t('steps:confirmCompany.caen.unknown', { code: '9999' })));
    expect(screen.queryByTestId('caen-notice')).toBeNull();
    cleanup();

    await show(company(null, null));
    await waitFor(() => expect(screen.getByTestId('company-address')).toBeTruthy());
    expect(screen.queryByTestId('company-caen')).toBeNull();
    expect(screen.queryByText(t('steps:confirmCompany.caen.label'))).toBeNull();
    expect(screen.queryByTestId('caen-notice')).toBeNull();
  });
});
