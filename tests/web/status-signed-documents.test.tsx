import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { session } from '@/shared/session';
import { makeUser, mockApi, ok, renderApp } from './helpers';

/** The status page's "Documentele semnate" (issue 17 item 10): the signed PDFs, one download each. */

const OPEN = 'GET /api/registration/open';
const SIGNED = [
  { id: 70, kind: 'legal_assistance_contract', name: 'contract-asistenta-juridica.pdf', url: '/api/files/70' },
  { id: 71, kind: 'power_of_attorney_request', name: 'cerere-imputernicire.pdf', url: '/api/files/71' },
];

function statusRequest(signed: object[] | undefined) {
  return {
    id: 1, registration_type: 2, step: 'requesting-company-step-9', status: 'submitted', lost_reason: null, form_data: {}, profile: {},
    media: { diploma_documents: [], driver_license: [], trade_register_documents: [], ...(signed ? { signed_documents: signed } : {}) }, paid: true,
    created_at: '2026-11-22T10:00:00Z', mailing_address: null, status_timeline: [], variants: ['unaffiliated'],
    steps: { previous: null, current: { identifier: 'requesting-company-step-9', index: 9 }, next: null, total: 10 },
    partner: { id: 1, name: 'Standard', slug: 'neafiliat', is_unaffiliated: true, description: null, footnote: null, prices: [] },
  };
}

describe('Status Dosar: Documentele semnate', () => {
  it('is not shown before the dossier was sent (none, or an answer without the list)', async () => {
    session.setUser(makeUser({ registration_type: 2 }));
    mockApi({ [OPEN]: ok(statusRequest(undefined)) });
    renderApp('/infiintare-pfa/status');
    await screen.findByRole('heading', { level: 2, name: 'Istoricul dosarului' });
    expect(screen.queryByRole('heading', { name: 'Documentele semnate' })).toBeNull();
  });

  it('downloads each PDF with the token, under its own name', async () => {
    session.setUser(makeUser({ registration_type: 2 }));
    const { apiCalls } = mockApi({
      [OPEN]: ok(statusRequest(SIGNED)),
      'GET /api/files/70': { status: 200, body: '%PDF-contract' },
      'GET /api/files/71': { status: 200, body: '%PDF-cerere' },
    });
    let n = 0;
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn(() => `blob:http://localhost:3000/pdf-${++n}`), revokeObjectURL: vi.fn() }));
    const clicked: { download: string; href: string }[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push({ download: this.download, href: this.href });
    });

    const { user } = renderApp('/infiintare-pfa/status');
    const section = await screen.findByRole('region', { name: 'Documentele semnate' });
    expect(within(section).getByText('Documentele pe care le-ai semnat la trimiterea dosarului, cu semnătura ta aplicată:')).toBeTruthy();
    const buttons = within(section).getAllByRole('button');
    expect(buttons.map((b) => b.textContent)).toEqual(['Descarcă: Contractul de asistență juridică (PDF)', 'Descarcă: Cererea de împuternicire (PDF)']);
    await user.click(buttons[0]);
    await waitFor(() => expect(clicked).toHaveLength(1));
    await user.click(buttons[1]);
    await waitFor(() => expect(clicked).toHaveLength(2));
    expect(clicked).toEqual([
      { download: 'contract-asistenta-juridica.pdf', href: 'blob:http://localhost:3000/pdf-1' },
      { download: 'cerere-imputernicire.pdf', href: 'blob:http://localhost:3000/pdf-2' },
    ]);
    const call = apiCalls().find((c) => c.path === '/api/files/70')!;
    expect(call.headers.Authorization).toBe('Bearer tok-123');
  });

  it('says so when a download fails', async () => {
    session.setUser(makeUser({ registration_type: 2 }));
    mockApi({ [OPEN]: ok(statusRequest(SIGNED)), 'GET /api/files/70': { status: 404, body: { message: 'Fișierul nu a fost găsit.', payload: null } } });
    const { user } = renderApp('/infiintare-pfa/status');
    const section = await screen.findByRole('region', { name: 'Documentele semnate' });
    await user.click(within(section).getAllByRole('button')[0]);
    expect((await within(section).findByRole('alert')).textContent).toContain('Nu am putut descărca documentul. Te rugăm să încerci din nou.');
  });
});
