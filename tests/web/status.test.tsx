import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import { session } from '@/shared/session';
import { findH1, makeUser, mockApi, ok, renderApp, type MockAnswer } from './helpers';

const OPEN = 'GET /api/registration/open';
const DOWNLOAD = 'GET /api/registration/download/tradeRegisterDocuments';

/** A paid new-PFA request with a timeline and trade register documents, as GET /api/registration/open answers it. */
function statusRequest(timeline: object[] = [], documents: { id: number; name: string }[] = []) {
  return {
    id: 1, registration_type: 2, step: 'requesting-company-step-9', status: 'in_progress', lost_reason: null, form_data: {}, profile: {},
    media: { diploma_documents: [], driver_license: [], trade_register_documents: documents }, paid: true,
    created_at: '2026-11-22T10:00:00Z', mailing_address: null, status_timeline: timeline, variants: ['unaffiliated'],
    steps: { previous: null, current: { identifier: 'requesting-company-step-9', index: 9 }, next: null, total: 10 },
    partner: { id: 1, name: 'Standard', slug: 'neafiliat', is_unaffiliated: true, description: null, footnote: null, prices: [] },
  };
}

const TIMELINE = [
  { id: 1, type: 'document_review', date: '2026-11-10', isDataComplete: false, hasDiploma: false, shouldHaveDriverLicense: true, hasDriverLicense: false, shouldHaveCertificate: true, hasCertificate: true, shouldHaveAdditionalDocuments: true },
  { id: 2, type: 'document_review', date: '2026-11-12', isDataComplete: true, hasDiploma: true, shouldHaveDriverLicense: true, hasDriverLicense: true, shouldHaveCertificate: false, hasCertificate: true, shouldHaveAdditionalDocuments: false },
  { id: 3, type: 'name_reservation', date: '2026-11-13', hasNameReservation: true, pfa_name: 'POPESCU ION PFA' },
  { id: 4, type: 'submitted', date: '2026-11-16', finalDossierSubmitted: true, estimated_date: '2026-11-23' },
  { id: 5, type: 'delayed', date: '2026-11-23', estimated_date: '2026-12-04', file_resubmission_date: '2026-11-27' },
  { id: 6, type: 'rejected', date: '2026-11-24' },
  { id: 7, type: 'finalized', date: '2026-12-05' },
];

function signedIn() {
  session.setUser(makeUser({ registration_type: 2 }));
}

const cards = () => screen.getAllByTestId('timeline-item');
const text = (el: HTMLElement) => el.textContent?.replace(/\s+/g, ' ').trim();

afterEach(() => {
  vi.useRealTimers();
});

describe('Status Dosar', () => {
  it('shows the notice and a waiting message while the timeline is empty; no download', async () => {
    signedIn();
    const { apiCalls } = mockApi({ [OPEN]: ok(statusRequest()) });
    renderApp('/infiintare-pfa/status');
    expect(await findH1('Status Dosar')).toBeTruthy();
    expect(await screen.findByText('Încă nu există nicio actualizare a dosarului tău. Pagina se actualizează singură: aici vei vedea fiecare pas, de îndată ce are loc.')).toBeTruthy();
    expect(
      screen.getByText('Procesarea dosarelor la Registrul Comerțului poate dura mai mult decât de obicei. Documentele PFA-ului tău îți vor fi trimise și pe e-mail.'),
    ).toBeTruthy();
    await waitFor(() => expect(screen.getByRole('heading', { level: 2, name: 'Istoricul dosarului' })).toBeTruthy());
    expect(screen.queryByRole('button', { name: /Descarcă/ })).toBeNull();
    expect(screen.queryAllByTestId('timeline-item')).toHaveLength(0);
    const call = apiCalls().find((c) => c.path === '/api/registration/open')!;
    expect(call.headers.Authorization).toBe('Bearer tok-123');
    expect(Number(call.query.get('timestamp'))).toBeGreaterThan(0);
    expect(document.title).toContain('Status Dosar');
    // Sent and paid: the wrapper's bar is full, not "Niciun pas finalizat încă".
    const progress = await screen.findByRole('progressbar', { name: 'Progresul înregistrării: Toți pașii sunt finalizați' });
    expect(progress.getAttribute('aria-valuenow')).toBe('100');
  });

  it('shows one card per item, newest first, with the Romanian text of each type and state and Romanian dates', async () => {
    signedIn();
    mockApi({ [OPEN]: ok(statusRequest(TIMELINE)) });
    renderApp('/infiintare-pfa/status');
    await waitFor(() => expect(cards()).toHaveLength(7));
    const history = (await screen.findByRole('heading', { level: 2, name: 'Istoricul dosarului' })).parentElement!;
    const ordered = within(history).getAllByRole('listitem').filter((li) => li.dataset.testid === 'timeline-item');
    expect(ordered.map((li) => li.dataset.type)).toEqual(['finalized', 'rejected', 'delayed', 'submitted', 'name_reservation', 'document_review', 'document_review']);
    expect(within(history).getAllByRole('heading', { level: 3 }).map((h) => h.textContent)).toEqual([
      'PFA înregistrat',
      'Dosar respins',
      'Dosarul întârzie',
      'Depunerea dosarului',
      'Rezervarea denumirii',
      'Verificarea documentelor',
      'Verificarea documentelor',
    ]);
    const [finalized, rejected, delayed, submitted, reservation, complete, incomplete] = ordered;
    expect(text(finalized)).toBe('PFA înregistrat5 decembrie 2026Felicitări! PFA-ul tău a fost înregistrat la Registrul Comerțului.');
    expect(finalized.querySelector('time')!.getAttribute('dateTime')).toBe('2026-12-05');
    expect(text(rejected)).toContain('Registrul Comerțului a respins dosarul. Te contactăm pe e-mail cu pașii următori.');
    expect(text(delayed)).toContain('Procesarea dosarului la Registrul Comerțului durează mai mult decât de obicei.');
    expect(text(delayed)).toContain('Noua dată estimată a soluționării: 4 decembrie 2026.');
    expect(text(delayed)).toContain('Dosarul va fi redepus pe 27 noiembrie 2026.');
    expect(text(submitted)).toContain('Dosarul final a fost depus la Registrul Comerțului.');
    expect(text(submitted)).toContain('Data estimată a soluționării: 23 noiembrie 2026.');
    expect(text(reservation)).toContain('Denumirea „POPESCU ION PFA” a fost rezervată la Registrul Comerțului.');
    expect(text(reservation)).toContain('13 noiembrie 2026');
    expect(text(complete)).toContain('Am verificat documentele tale: dosarul este complet.');
    expect(within(complete).queryByRole('list')).toBeNull();
    expect(text(incomplete)).toContain('Am verificat documentele tale: dosarul nu este încă complet.');
    expect(text(incomplete)).toContain('Mai avem nevoie de:');
    // Missing: no diploma, a licence that should be there and is not, additional documents; the certificate is there.
    expect(within(incomplete).getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      'diploma de studii',
      'permisul de conducere',
      'documente suplimentare (îți scriem pe e-mail care anume)',
    ]);
    await waitFor(() => expect(screen.getByText('Ultima actualizare: PFA înregistrat, 5 decembrie 2026.')).toBeTruthy());
  });

  it('the other states: a name still being reserved, a file submitted but not final, an incomplete review with nothing listed', async () => {
    signedIn();
    mockApi({
      [OPEN]: ok(
        statusRequest([
          { id: 1, type: 'document_review', date: '2026-11-10', isDataComplete: false, hasDiploma: true, shouldHaveDriverLicense: false, hasDriverLicense: true, shouldHaveCertificate: false, hasCertificate: true, shouldHaveAdditionalDocuments: false },
          { id: 2, type: 'name_reservation', date: '2026-11-11', hasNameReservation: false, pfa_name: 'IONESCU ANA PFA' },
          { id: 3, type: 'submitted', date: '2026-11-12', finalDossierSubmitted: false, estimated_date: null },
          { id: 4, type: 'delayed', date: '2026-11-13', estimated_date: null, file_resubmission_date: null },
        ]),
      ),
    });
    renderApp('/infiintare-pfa/status');
    await waitFor(() => expect(cards()).toHaveLength(4));
    const [delayed, submitted, reservation, review] = cards();
    expect(text(delayed)).toBe('Dosarul întârzie13 noiembrie 2026Procesarea dosarului la Registrul Comerțului durează mai mult decât de obicei.');
    expect(text(submitted)).toBe('Depunerea dosarului12 noiembrie 2026Am trimis dosarul la Registrul Comerțului. Dosarul final nu a fost încă depus.');
    expect(text(reservation)).toContain('Rezervarea denumirii „IONESCU ANA PFA” la Registrul Comerțului este în curs.');
    expect(text(review)).toContain('Îți scriem pe e-mail ce mai avem nevoie.');
    expect(within(review).queryByRole('list')).toBeNull();
  });

  it('asks again every 5 s: an item an operator adds shows without a reload', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    signedIn();
    let answer: MockAnswer = ok(statusRequest());
    const { apiCalls } = mockApi({ [OPEN]: () => answer });
    renderApp('/infiintare-pfa/status');
    await screen.findByText(/Încă nu există nicio actualizare/);
    const before = apiCalls().filter((c) => c.path === '/api/registration/open').length;

    answer = ok(statusRequest([{ id: 9, type: 'name_reservation', date: '2026-11-23', hasNameReservation: true, pfa_name: 'POPESCU ION PFA' }], [{ id: 40, name: 'certificat.pdf' }]));
    await act(() => vi.advanceTimersByTimeAsync(3500));
    expect(screen.queryAllByTestId('timeline-item')).toHaveLength(0);
    await act(() => vi.advanceTimersByTimeAsync(2000));
    // Shorter than the 4.5 s the fake clock (which also moves with real time) needs to reach the next
    // poll, and long enough for a loaded machine to render the answer.
    await waitFor(() => expect(cards()).toHaveLength(1), { timeout: 3000 });
    expect(apiCalls().filter((c) => c.path === '/api/registration/open').length).toBe(before + 1);
    expect(text(cards()[0])).toContain('Denumirea „POPESCU ION PFA” a fost rezervată la Registrul Comerțului.');
    await waitFor(() => expect(screen.getByRole('button', { name: 'Descarcă documentele (documente.zip)' })).toBeTruthy());
  });

  it('downloads the trade register documents as documente.zip', async () => {
    signedIn();
    const zipBytes = 'PK\u0005\u0006'.padEnd(22, '\u0000');
    const { apiCalls } = mockApi({
      [OPEN]: ok(statusRequest(TIMELINE, [{ id: 40, name: 'certificat.pdf' }, { id: 41, name: 'rezolutie.pdf' }])),
      [DOWNLOAD]: { status: 200, body: zipBytes },
    });
    const created: Blob[] = [];
    const createObjectURL = vi.fn((blob: Blob) => {
      created.push(blob);
      return 'blob:http://localhost:3000/zip-1';
    });
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }));
    const clicked: { download: string; href: string }[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push({ download: this.download, href: this.href });
    });

    const { user } = renderApp('/infiintare-pfa/status');
    const section = (await screen.findByRole('heading', { level: 2, name: 'Documentele de la Registrul Comerțului' })).parentElement!;
    expect(within(section).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['certificat.pdf', 'rezolutie.pdf']);
    await user.click(await screen.findByRole('button', { name: 'Descarcă documentele (documente.zip)' }));
    await waitFor(() => expect(clicked).toHaveLength(1));
    expect(clicked[0]).toEqual({ download: 'documente.zip', href: 'blob:http://localhost:3000/zip-1' });
    // The saved blob is the download's body (the mock answers the bytes as a JSON string).
    expect(await created[0].text()).toBe(JSON.stringify(zipBytes));
    const call = apiCalls().find((c) => c.path === '/api/registration/download/tradeRegisterDocuments')!;
    expect(call.headers.Authorization).toBe('Bearer tok-123');
  });

  it('says so when the documents are not there (404)', async () => {
    signedIn();
    mockApi({
      [OPEN]: ok(statusRequest([], [{ id: 40, name: 'certificat.pdf' }])),
      [DOWNLOAD]: { status: 404, body: { message: 'Documentele de la Registrul Comerțului nu sunt încă disponibile.', payload: null } },
    });
    const { user } = renderApp('/infiintare-pfa/status');
    await user.click(await screen.findByRole('button', { name: 'Descarcă documentele (documente.zip)' }));
    expect((await screen.findByRole('alert')).textContent).toContain('Documentele de la Registrul Comerțului nu sunt încă disponibile.');
  });

  it('shows an error when the request cannot be loaded', async () => {
    signedIn();
    mockApi({ [OPEN]: { status: 500, body: { message: 'A apărut o eroare.', payload: null } } });
    renderApp('/infiintare-pfa/status');
    expect((await screen.findByRole('alert')).textContent).toContain('Nu am putut încărca statusul dosarului. Încercăm din nou automat.');
  });
});

describe('Status Dosar: the payment’s items (issue 17 items 4, 11)', () => {
  it('"Plata a fost primită" with the amount, the phases and the day; a failed invoice and the subscription’s end', async () => {
    signedIn();
    mockApi({
      [OPEN]: ok(
        statusRequest([
          { id: 11, type: 'payment_received', date: '2026-11-25', amount: 130, currency: 'RON', intro_months: 3, then_amount: 72, payment_id: 'pay_1' },
          { id: 12, type: 'payment_failed', date: '2026-12-22', amount: 130, currency: 'RON', next_attempt_date: '2026-12-25' },
          { id: 13, type: 'subscription_cancelled', date: '2026-12-29' },
        ]),
      ),
    });
    renderApp('/infiintare-pfa/status');
    await waitFor(() => expect(cards()).toHaveLength(3));
    const [cancelled, failed, received] = cards();
    expect(text(received)).toBe(
      'Plata a fost primită25 noiembrie 2026Am primit plata de 130,00 lei pentru abonament.Abonamentul tău: 130,00 lei pe lună în primele 3 luni, apoi 72,00 lei pe lună.Ți-am trimis confirmarea plății pe e-mail.',
    );
    expect(text(failed)).toBe('Plata abonamentului nu a reușit22 decembrie 2026Nu am putut încasa 130,00 lei pentru abonament. Verifică dacă poți plăti cu cardul tău.Încercăm din nou pe 25 decembrie 2026.');
    expect(text(cancelled)).toBe('Abonamentul s-a încheiat29 decembrie 2026Abonamentul tău a fost încheiat și nu se mai fac plăți. Scrie-ne dacă vrei să îl reiei.');
  });

  it('a payment without an introductory phase: the amount only', async () => {
    signedIn();
    mockApi({ [OPEN]: ok(statusRequest([{ id: 21, type: 'payment_received', date: '2026-11-25', amount: 119, currency: 'RON', intro_months: null, then_amount: null }])) });
    renderApp('/infiintare-pfa/status');
    await waitFor(() => expect(cards()).toHaveLength(1));
    expect(text(cards()[0])).toBe('Plata a fost primită25 noiembrie 2026Am primit plata de 119,00 lei pentru abonament.Ți-am trimis confirmarea plății pe e-mail.');
  });
});
