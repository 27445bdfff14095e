import { beforeEach, describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import ro from '../../locales/ro/console.json';
import { findH1, mockApi, ok, renderApp } from './helpers';
import { staffSession } from '@/pages/staff/session';
import { STAFF_ME, signInStaff } from './staff-helpers';

/**
 * The operator's dossier of an "Am PFA" applicant: the firm found by its CUI with its main CAEN code
 * as the server read it (`request.company.caen`); a CAEN Rev.2 code shows its Rev.3 correspondence
 * and the trade register's procedure, as the applicant sees on "Te-am găsit". Copy from
 * locales/ro/console.json.
 */

beforeEach(() => staffSession.reload());

/** The console's Romanian copy of `dossier.<key>`, {{vars}} filled in; a missing key fails. */
function copy(key: string, vars: Record<string, string> = {}): string {
  const text = (ro.dossier as Record<string, unknown>)[key];
  if (typeof text !== 'string') throw new Error(`locales/ro/console.json has no dossier.${key}`);
  return text.replace(/\{\{(\w+)\}\}/g, (_, name: string) => vars[name] ?? '');
}

const SOFTWARE = 'Activități de realizare a soft-ului la comandă (software orientat client)';
const ROW = {
  id: 21, email: 'ion.popescu@exemplu.ro', name: 'POPESCU ION', cnp: '1900101400010', cui: '42157397', registration_type: 1, flow: 'existing-pfa',
  step: 4, step_id: 'existing-company-step-4', paid: false, status: 'in_progress', partner: 'neafiliat', created_at: '2026-11-20T10:00:00Z',
};

function answer(company: Record<string, unknown> | null) {
  return {
    dossier: ROW,
    request: {
      id: 21, registration_type: 1, step: 'existing-company-step-4', status: 'in_progress', lost_reason: null, form_data: { fiscal_code: '42157397' },
      profile: { first_name: 'ION', last_name: 'POPESCU' },
      media: { identity_document: null, veriff_document_front: null, veriff_document_back: null, selfie_document: null, signature_document: null, diploma_documents: [], driver_license: [], trade_register_documents: [], signed_documents: [] },
      paid: false, paid_at: null, created_at: '2026-11-20T10:00:00Z', signature_file_id: null, ghiseu_card_requested: null, mailing_address: null, company,
      status_timeline: [], steps: { previous: null, current: { identifier: 'existing-company-step-4', index: 3 }, next: null, total: 7 }, variants: [],
      partner: { id: 1, name: 'Standard', slug: 'neafiliat', is_unaffiliated: true, description: null, footnote: null, prices: [] },
    },
    caen_codes: [],
    payments: [],
    files: [],
    audit: [],
  };
}

const FIRM = {
  fiscal_code: '42157397', name: 'POPESCU ION PERSOANĂ FIZICĂ AUTORIZATĂ', address: 'JUD. CLUJ, MUN. CLUJ-NAPOCA, STR. MEMORANDUMULUI, NR. 12', registration_number: 'F12/345/2020',
  legal_form: 'PFA', is_pfa: true, county: 'Cluj', city: 'Cluj-Napoca',
};

async function open(company: Record<string, unknown> | null) {
  signInStaff();
  mockApi({ ...STAFF_ME, 'GET /api/staff/dossiers/21': ok(answer(company)), 'GET /api/staff/timeline-types': ok([]) });
  renderApp('/staff/dossiers/21');
  expect(await findH1('Dosarul 21: POPESCU ION')).toBeTruthy();
}

describe('operator console: the firm of an "Am PFA" dossier', () => {
  it('a CAEN Rev.2 main code: the firm, the code, its Rev.3 correspondence and the ONRC procedure', async () => {
    await open({
      ...FIRM,
      caen_code: '6201',
      caen: { code: '6201', status: 'previous', previous: { code: '6201', name: SOFTWARE }, current: null, equivalents: [{ code: '6210', name: SOFTWARE }] },
    });
    const section = screen.getByRole('region', { name: copy('company') });
    expect(within(section).getByText(FIRM.name)).toBeTruthy();
    expect(within(section).getByText('F12/345/2020')).toBeTruthy();
    expect(within(section).getByTestId('company-caen').textContent).toBe(copy('companyCaenPrevious', { code: '6201', name: SOFTWARE }));
    const notice = within(section).getByTestId('company-caen-notice');
    expect(notice.textContent).toContain(copy('companyCaenPreviousText'));
    expect(notice.textContent).toContain(copy('companyCaenProcedure'));
    expect(within(notice).getByText(copy('companyCaenEquivalents'))).toBeTruthy();
    expect(within(notice).getAllByRole('listitem').map((li) => li.textContent)).toEqual([`6210 ${SOFTWARE}`]);
  });

  it('4791 read both ways: both meanings and the notice; a Rev.3 code: no notice', async () => {
    const previous = { code: '4791', name: 'Comerț cu amănuntul prin intermediul caselor de comenzi sau prin Internet' };
    const current = { code: '4791', name: 'Intermedieri în comerțul cu amănuntul nespecializat' };
    await open({ ...FIRM, caen_code: '4791', caen: { code: '4791', status: 'ambiguous', previous, current, equivalents: [{ code: '4711', name: 'Comerț cu amănuntul 1' }, { code: '4791', name: current.name }] } });
    expect(screen.getByTestId('company-caen').textContent).toBe(copy('companyCaenAmbiguous', { code: '4791', previous: previous.name, current: current.name }));
    const notice = screen.getByTestId('company-caen-notice');
    expect(notice.textContent).toContain(copy('companyCaenAmbiguousText'));
    expect(notice.textContent).toContain(copy('companyCaenProcedure'));
    expect(within(notice).getAllByRole('listitem')).toHaveLength(2);
  });

  it('a CAEN Rev.3 main code: the line, no notice', async () => {
    await open({ ...FIRM, caen_code: '6210', caen: { code: '6210', status: 'current', current: { code: '6210', name: SOFTWARE }, previous: null, equivalents: [] } });
    expect(screen.getByTestId('company-caen').textContent).toBe(copy('companyCaenCurrent', { code: '6210', name: SOFTWARE }));
    expect(screen.queryByTestId('company-caen-notice')).toBeNull();
  });

  it('without a company (a new PFA): no firm section', async () => {
    await open(null);
    expect(screen.queryByRole('heading', { level: 2, name: copy('company') })).toBeNull();
  });
});
