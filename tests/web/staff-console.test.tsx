import { beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { findH1, invalid, mockApi, ok, renderApp, type RecordedCall } from './helpers';
import { staffSession } from '@/pages/staff/session';
import { OPERATOR, STAFF_ME, signInStaff } from './staff-helpers';
import { localeText } from '../copy';

// The staff session store keeps its state in memory: read again from the (cleared) storage.
beforeEach(() => staffSession.reload());

const LIST = 'GET /api/staff/dossiers';
const ONE = 'GET /api/staff/dossiers/12';
const TYPES = 'GET /api/staff/timeline-types';

const ROW = {
  id: 12, email: 'ion.popescu@exemplu.ro', name: 'POPESCU ION', cnp: '1900101400010', cui: null, registration_type: 2, flow: 'new-pfa',
  step: 'requesting-company-step-9', step_id: 'requesting-company-step-9', paid: true, status: 'paid', partner: 'neafiliat', created_at: '2026-11-20T10:00:00Z',
};

function page(items = [ROW], total = items.length, pageNo = 1) {
  return ok({ items, total, page: pageNo, page_size: 20 });
}

const NAME_RESERVATION = {
  $id: 'timeline-name_reservation.json', type: 'object', required: ['type', 'date', 'hasNameReservation', 'pfa_name'], additionalProperties: false,
  properties: { type: { const: 'name_reservation' }, date: { type: 'string', format: 'date' }, hasNameReservation: { type: 'boolean' }, pfa_name: { type: 'string', minLength: 1, maxLength: 200, pattern: '\\S' } },
};
const REJECTED = { $id: 'timeline-rejected.json', type: 'object', required: ['type', 'date'], additionalProperties: false, properties: { type: { const: 'rejected' }, date: { type: 'string', format: 'date' } } };

const FILES = [
  { id: 3, name: 'buletin-fata.jpg', content_type: 'image/jpeg', size: 1000, created_at: '2026-11-20T10:00:00Z', url: '/api/staff/dossiers/12/files/3' },
  { id: 4, name: 'diploma.pdf', content_type: 'application/pdf', size: 2000, created_at: '2026-11-20T10:01:00Z', url: '/api/staff/dossiers/12/files/4' },
  { id: 5, name: 'semnatura.png', content_type: 'image/png', size: 300, created_at: '2026-11-20T10:02:00Z', url: '/api/staff/dossiers/12/files/5' },
  { id: 8, name: 'contract-asistenta-juridica.pdf', content_type: 'application/pdf', size: 5000, created_at: '2026-11-20T10:03:00Z', url: '/api/staff/dossiers/12/files/8' },
];

/** GET /api/staff/dossiers/:id as the staff API answers it: the list item, the applicant's request and the rest. */
function dossier({ status = 'paid', timeline = [] as object[], trade = [] as { id: number; name: string }[], audit = [] as object[], files = FILES } = {}) {
  return {
    dossier: { ...ROW, status },
    request: {
      id: 12, registration_type: 2, step: 'requesting-company-step-9', status, lost_reason: null, form_data: { codes: [1] },
      profile: { first_name: 'ION', last_name: 'POPESCU', personal_code: '1900101400010' },
      media: {
        identity_document: null, veriff_document_front: { id: 3, url: '/api/files/3' }, veriff_document_back: null, selfie_document: null,
        signature_document: { id: 5, url: '/api/files/5' }, diploma_documents: [{ id: 4, name: 'diploma.pdf', url: '/api/files/4' }], driver_license: [],
        trade_register_documents: trade, signed_documents: [{ id: 8, kind: 'legal_assistance_contract', name: 'contract-asistenta-juridica.pdf', url: '/api/files/8' }],
      },
      paid: true, paid_at: '2026-11-20T10:06:00Z', created_at: '2026-11-20T10:00:00Z', signature_file_id: 5, ghiseu_card_requested: null, mailing_address: null,
      status_timeline: [...timeline, { id: 2, type: 'payment_received', date: '2026-11-20', amount: 130, currency: 'RON', intro_months: 3, then_amount: 72, payment_id: 'pay_1' }],
      steps: { previous: null, current: { identifier: 'requesting-company-step-9', index: 9 }, next: null, total: 10 }, variants: [],
      partner: { id: 1, name: 'Standard', slug: 'neafiliat', is_unaffiliated: true, description: null, footnote: null, prices: [] },
    },
    caen_codes: [{ id: 1, code: '6210', name: 'Activități de realizare a soft-ului la comandă', revision: 'CAEN Rev.3', is_primary: 1 }],
    payments: [{ id: 'pay_1', provider: 'stripe', status: 'paid', amount: 130, currency: 'RON', created_at: '2026-11-20T10:05:00Z', paid_at: '2026-11-20T10:06:00Z', subscription_id: null, schedule_id: null }],
    files,
    audit,
  };
}

const typesAnswer = ok([{ type: 'name_reservation', schema: NAME_RESERVATION }, { type: 'rejected', schema: REJECTED }]);

describe('operator console: /staff/dossiers', () => {
  it('searches by CNP with the staff token and links each row to its dossier', async () => {
    signInStaff();
    const { calls } = mockApi({
      ...STAFF_ME, [LIST]: page(), 'GET /api/partner/index': ok([{ id: 1, name: 'Standard', slug: 'neafiliat', is_unaffiliated: true }]) });
    const { user, pathname } = renderApp('/staff/dossiers');
    expect(await findH1('Dosare')).toBeTruthy();
    const table = await screen.findByRole('table', { name: 'Dosare găsite: 1' });
    expect(within(table).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Nr.', 'Nume', 'E-mail', 'CNP', 'CUI', 'Flux', 'Pas', 'Plătit', 'Stare', 'Partener', 'Creat']);

    const search = screen.getByRole('searchbox', { name: 'Caută' });
    await user.type(search, '1900101400010');
    await user.click(screen.getByRole('button', { name: 'Caută' }));
    await waitFor(() => expect(calls.some((c) => c.path === '/api/staff/dossiers' && c.query.get('search') === '1900101400010')).toBe(true));
    const call = calls.find((c) => c.query.get('search') === '1900101400010')!;
    expect(call.headers.Authorization).toBe('Bearer staff-tok');
    expect(call.query.get('page')).toBe('1');

    await user.click(screen.getByRole('link', { name: 'Dosarul 12: POPESCU ION' }));
    await waitFor(() => expect(pathname()).toBe('/staff/dossiers/12'));
  });

  it('filters by flow, step, paid, status and partner, and pages', async () => {
    signInStaff();
    const { calls } = mockApi({
      ...STAFF_ME,
      [LIST]: (call: RecordedCall) => page([ROW], 45, Number(call.query.get('page') ?? 1)),
      'GET /api/partner/index': ok([{ id: 1, name: 'Standard', slug: 'neafiliat', is_unaffiliated: true }]),
    });
    const { user } = renderApp('/staff/dossiers');
    await screen.findByRole('table', { name: 'Dosare găsite: 45 (pagina 1 din 3)' });
    await user.selectOptions(screen.getByRole('combobox', { name: 'Flux' }), 'new-pfa');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Pasul curent' }), 'requesting-company-step-3');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Plătit' }), 'Nu');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Stare' }), 'Finalizat');
    await user.selectOptions(await screen.findByRole('option', { name: 'Standard' }).then(() => screen.getByRole('combobox', { name: 'Partener' })), 'neafiliat');
    await waitFor(() => {
      const last = calls.filter((c) => c.path === '/api/staff/dossiers').at(-1)!;
      expect(Object.fromEntries(last.query)).toEqual({ flow: 'new-pfa', step: 'requesting-company-step-3', paid: 'false', status: 'finalized', partner: 'neafiliat', page: '1', page_size: '20' });
    });
    const nav = screen.getByRole('navigation', { name: 'Paginare' });
    await user.click(within(nav).getByRole('button', { name: 'Pagina următoare' }));
    expect(await within(nav).findByText('Pagina 2 din 3')).toBeTruthy();
    expect(calls.filter((c) => c.path === '/api/staff/dossiers').at(-1)!.query.get('page')).toBe('2');
    await user.click(screen.getByRole('button', { name: 'Șterge filtrele' }));
    await waitFor(() => expect(Object.fromEntries(calls.filter((c) => c.path === '/api/staff/dossiers').at(-1)!.query)).toEqual({ page: '1', page_size: '20' }));
  });

  it('says so when nothing matches', async () => {
    signInStaff();
    mockApi({
      ...STAFF_ME, [LIST]: page([], 0), 'GET /api/partner/index': ok([]) });
    renderApp('/staff/dossiers?search=nimeni');
    expect(await screen.findByText('Niciun dosar nu corespunde căutării.')).toBeTruthy();
    expect((screen.getByRole('searchbox', { name: 'Caută' }) as HTMLInputElement).value).toBe('nimeni');
  });
});

describe('operator console: /staff/dossiers/:id', () => {
  it('shows the dossier: summary, files, CAEN codes, payments, signed PDFs', async () => {
    signInStaff();
    mockApi({
      ...STAFF_ME, [ONE]: ok(dossier()), [TYPES]: typesAnswer });
    renderApp('/staff/dossiers/12');
    expect(await findH1('Dosarul 12: POPESCU ION')).toBeTruthy();
    for (const name of ['Rezumat', 'Profil', 'Fotografiile de identitate', 'Documente și licențe', 'Semnătura', 'Coduri CAEN', 'Adresa de corespondență', 'Documentele semnate', 'Plăți și evenimente de facturare', 'Istoricul statusului', 'Documentele de la Registrul Comerțului', 'Acțiuni', 'Jurnalul de audit']) {
      expect(screen.getByRole('heading', { level: 2, name })).toBeTruthy();
    }
    expect(screen.getByRole('button', { name: 'Descarcă buletin-fata.jpg' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Descarcă diploma.pdf' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Descarcă contract-asistenta-juridica.pdf' })).toBeTruthy();
    expect(screen.getByText(/6210 Activități de realizare a soft-ului la comandă \(principal\)/)).toBeTruthy();
    expect(within(screen.getByRole('table', { name: 'Plățile dosarului' })).getByText('130 RON')).toBeTruthy();
    expect(screen.getByTestId('dossier-status').textContent).toBe('Plătit');
    expect(screen.getByText('Nicio acțiune încă.')).toBeTruthy();
    expect(screen.getByText('Actul de identitate, față:')).toBeTruthy();
    // The billing items of the timeline are the billing events, apart from the status history.
    const billing = screen.getByRole('heading', { level: 3, name: 'Evenimente de facturare' }).nextElementSibling as HTMLElement;
    expect(within(billing).getAllByTestId('staff-timeline-item')).toHaveLength(1);
    expect(screen.getByText('Nimic încă.')).toBeTruthy();
  });

  it('downloads a file with the staff token; shows the signature', async () => {
    signInStaff();
    const { calls } = mockApi({
      ...STAFF_ME,
      [ONE]: ok(dossier()),
      [TYPES]: typesAnswer,
      'GET /api/staff/dossiers/12/files/4': { body: 'pdf' },
      'GET /api/staff/dossiers/12/files/5': { body: 'png' },
    });
    const created = vi.fn(() => 'blob:x');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: created, revokeObjectURL: vi.fn() }));
    const { user } = renderApp('/staff/dossiers/12');
    expect((await screen.findByRole('img', { name: 'Semnătura solicitantului' })).getAttribute('src')).toBe('blob:x');
    await user.click(await screen.findByRole('button', { name: 'Descarcă diploma.pdf' }));
    await waitFor(() => expect(created).toHaveBeenCalled());
    expect(calls.find((c) => c.path === '/api/staff/dossiers/12/files/4')!.headers.Authorization).toBe('Bearer staff-tok');
  });

  it('adds a timeline item from the type’s JSON Schema; the new item and a toast show', async () => {
    signInStaff();
    let timeline: object[] = [];
    const { calls } = mockApi({
      ...STAFF_ME,
      [ONE]: () => ok(dossier({ timeline, audit: timeline.length ? [{ id: 1, at: '2026-11-25T19:00:00Z', staff_user_id: 3, staff_email: 'operator@ghiseu.ro', action: 'timeline.add', request_id: 12, before: null, after: { type: 'name_reservation' } }] : [] })),
      [TYPES]: typesAnswer,
      'POST /api/staff/dossiers/12/timeline': (call: RecordedCall) => {
        if (!call.body.pfa_name) return invalid({ pfa_name: ['Denumirea este obligatorie (cel mult 200 de caractere).'] });
        timeline = [{ id: 31, ...call.body }];
        return ok({ id: 31 }, 'Elementul a fost adăugat în istoricul dosarului.');
      },
    });
    const { user } = renderApp('/staff/dossiers/12');
    await findH1('Dosarul 12: POPESCU ION');
    expect((await screen.findByRole('combobox', { name: 'Tipul elementului' }) as HTMLSelectElement).value).toBe('name_reservation');
    const date = screen.getByLabelText(/^Data/) as HTMLInputElement;
    expect(date.value).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    await user.click(screen.getByRole('checkbox', { name: /Denumirea este rezervată/ }));
    await user.click(screen.getByRole('button', { name: 'Adaugă elementul' }));
    expect(await screen.findByText('Denumirea este obligatorie (cel mult 200 de caractere).')).toBeTruthy();
    expect(timeline).toHaveLength(0);

    await user.type(screen.getByLabelText(/^Denumirea PFA/), 'POPESCU ION PFA');
    await user.click(screen.getByRole('button', { name: 'Adaugă elementul' }));
    expect(await screen.findByText('Elementul a fost adăugat în istoricul dosarului.')).toBeTruthy();
    const posted = calls.filter((c) => c.path === '/api/staff/dossiers/12/timeline').at(-1)!;
    expect(posted.body).toEqual({ type: 'name_reservation', date: date.value, hasNameReservation: true, pfa_name: 'POPESCU ION PFA' });
    expect(posted.headers.Authorization).toBe('Bearer staff-tok');
    const history = screen.getByRole('heading', { level: 2, name: 'Istoricul statusului' }).parentElement!;
    const item = await within(history).findByTestId('staff-timeline-item');
    expect(item.textContent).toContain('Rezervarea denumirii');
    expect(item.textContent).toContain('Denumirea PFA: POPESCU ION PFA');
    const audit = screen.getByRole('table', { name: 'Acțiunile personalului asupra dosarului' });
    expect(within(audit).getByText('operator@ghiseu.ro')).toBeTruthy();
    expect(within(audit).getByText(localeText('console:dossier.auditActions.timeline.add'))).toBeTruthy();
  });

  it('a type without fields draws only the date', async () => {
    signInStaff();
    mockApi({
      ...STAFF_ME, [ONE]: ok(dossier()), [TYPES]: typesAnswer });
    const { user } = renderApp('/staff/dossiers/12');
    await user.selectOptions(await screen.findByRole('combobox', { name: 'Tipul elementului' }), 'Dosar respins');
    expect(screen.getByLabelText(/^Data/)).toBeTruthy();
    expect(screen.queryByRole('checkbox')).toBeNull();
  });

  it('uploads trade-register documents as multipart; the list shows them', async () => {
    signInStaff();
    let documents: { id: number; name: string }[] = [];
    let sent: FormData | null = null;
    mockApi({
      ...STAFF_ME,
      [ONE]: () => ok(dossier({ trade: documents, files: [...FILES, ...documents.map((d) => ({ ...d, content_type: 'application/pdf', size: 8, created_at: '2026-11-25T19:00:00Z', url: `/api/staff/dossiers/12/files/${d.id}` }))] })),
      [TYPES]: typesAnswer,
      'POST /api/staff/dossiers/12/documents': (call: RecordedCall) => {
        sent = call.body as FormData;
        documents = [{ id: 40, name: 'certificat.pdf' }];
        return { status: 201, body: { message: 'Documentele au fost atașate dosarului.', payload: { documents } } };
      },
    });
    const { user } = renderApp('/staff/dossiers/12');
    await findH1('Dosarul 12: POPESCU ION');
    await user.click(screen.getByRole('button', { name: 'Încarcă documentele' }));
    expect(await screen.findByText('Alege cel puțin un fișier.')).toBeTruthy();
    await user.upload(screen.getByLabelText('Fișiere (PDF sau imagini)'), new File(['%PDF-1.4'], 'certificat.pdf', { type: 'application/pdf' }));
    await user.click(screen.getByRole('button', { name: 'Încarcă documentele' }));
    expect(await screen.findByText('Documentele au fost atașate dosarului.')).toBeTruthy();
    expect((sent as unknown as FormData).get('files[0]')).toBeInstanceOf(File);
    expect(await screen.findByRole('button', { name: 'Descarcă certificat.pdf' })).toBeTruthy();
  });

  it('finalizes after a confirmation; cancelling sends nothing', async () => {
    signInStaff();
    let status = 'paid';
    const { calls } = mockApi({
      ...STAFF_ME,
      [ONE]: () => ok(dossier({ status })),
      [TYPES]: typesAnswer,
      'POST /api/staff/dossiers/12/finalize': () => {
        status = 'finalized';
        return ok(null, 'Dosarul a fost finalizat.');
      },
    });
    const { user } = renderApp('/staff/dossiers/12');
    await findH1('Dosarul 12: POPESCU ION');
    await user.click(screen.getByRole('button', { name: 'Marchează ca finalizat' }));
    let dialog = await screen.findByRole('alertdialog', { name: 'Finalizezi dosarul?' });
    await user.click(within(dialog).getByRole('button', { name: 'Renunță' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(calls.some((c) => c.method === 'POST')).toBe(false);

    await user.click(screen.getByRole('button', { name: 'Marchează ca finalizat' }));
    dialog = await screen.findByRole('alertdialog', { name: 'Finalizezi dosarul?' });
    await user.click(within(dialog).getByRole('button', { name: 'Confirmă' }));
    expect(await screen.findByText('Dosarul a fost finalizat.')).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId('dossier-status').textContent).toBe('Finalizat'));
    expect((screen.getByRole('button', { name: 'Marchează ca respins' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('rejects after a confirmation', async () => {
    signInStaff();
    let status = 'paid';
    mockApi({
      ...STAFF_ME,
      [ONE]: () => ok(dossier({ status })),
      [TYPES]: typesAnswer,
      'POST /api/staff/dossiers/12/reject': () => {
        status = 'rejected';
        return ok(null, 'Dosarul a fost respins.');
      },
    });
    const { user } = renderApp('/staff/dossiers/12');
    await findH1('Dosarul 12: POPESCU ION');
    await user.click(screen.getByRole('button', { name: 'Marchează ca respins' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Respingi dosarul?' });
    await user.click(within(dialog).getByRole('button', { name: 'Confirmă' }));
    await waitFor(() => expect(screen.getByTestId('dossier-status').textContent).toBe('Respins'));
  });

  it('asks the applicant for missing documents', async () => {
    signInStaff();
    const { calls } = mockApi({
      ...STAFF_ME, [ONE]: ok(dossier()), [TYPES]: typesAnswer, 'POST /api/staff/dossiers/12/missing-documents': ok(null, 'Mesajul către solicitant a fost pus în coada de trimitere.') });
    const { user } = renderApp('/staff/dossiers/12');
    await findH1('Dosarul 12: POPESCU ION');
    await user.click(screen.getByRole('button', { name: 'Trimite mesajul' }));
    expect(await screen.findByText('Scrie mesajul.')).toBeTruthy();
    await user.type(screen.getByRole('textbox', { name: 'Mesajul pentru solicitant' }), 'Te rugăm să trimiți diploma.');
    await user.click(screen.getByRole('button', { name: 'Trimite mesajul' }));
    expect(await screen.findByText('Mesajul către solicitant a fost pus în coada de trimitere.')).toBeTruthy();
    expect(calls.find((c) => c.path === '/api/staff/dossiers/12/missing-documents')!.body).toEqual({ message: 'Te rugăm să trimiți diploma.' });
  });

  it('downloads the audit log as CSV', async () => {
    signInStaff();
    const { calls } = mockApi({
      ...STAFF_ME, [ONE]: ok(dossier()), [TYPES]: typesAnswer, 'GET /api/staff/audit.csv': { body: 'x' } });
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:x'), revokeObjectURL: vi.fn() }));
    const { user } = renderApp('/staff/dossiers/12');
    await user.click(await screen.findByRole('button', { name: 'Descarcă jurnalul (CSV)' }));
    await waitFor(() => expect(calls.some((c) => c.path === '/api/staff/audit.csv' && c.query.get('dossier') === '12')).toBe(true));
  });

  it('a dossier that does not exist: the message', async () => {
    signInStaff();
    mockApi({
      ...STAFF_ME, [TYPES]: typesAnswer });
    renderApp('/staff/dossiers/999');
    expect(await screen.findByText('Dosarul nu a fost găsit.')).toBeTruthy();
  });
});

describe('operator console: who may open it', () => {
  it('an editor is sent to the staff home with the "no access" notice', async () => {
    localStorage.setItem('staff_session', JSON.stringify({ access_token: 'ed-tok', expires_at: new Date(Date.now() + 3_600_000).toISOString(), staff: { ...OPERATOR, role: 'editor' } }));
    staffSession.reload();
    const { apiCalls } = mockApi({ 'GET /api/staff/me': ok({ ...OPERATOR, role: 'editor' }) });
    const { pathname } = renderApp('/staff/dossiers');
    expect(await screen.findByText('Contul tău de personal nu are acces la pagina cerută.')).toBeTruthy();
    expect(pathname()).toBe('/staff');
    expect(apiCalls().some((c) => c.path.startsWith('/api/staff/dossiers'))).toBe(false);
  });

  it('a signed-out visitor is sent to /staff/login', async () => {
    const { pathname } = (mockApi(), renderApp('/staff/dossiers/12'));
    await waitFor(() => expect(pathname()).toBe('/staff/login'));
  });
});
