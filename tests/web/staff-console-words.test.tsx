/**
 * Issue 33, "operators see words": the console names steps "Pasul N · <name>" from the flow files
 * (in each file's order) and a profile's fields by the labels the applicant read, in Romanian and in
 * English. Every expected text is read from the flow files and the locale files: staff edit those.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import existingPfa from '../../flows/existing-pfa.json';
import newPfa from '../../flows/new-pfa.json';
import roConsole from '../../locales/ro/console.json';
import enConsole from '../../locales/en/console.json';
import roSteps from '../../locales/ro/steps.json';
import enSteps from '../../locales/en/steps.json';
import { findH1, mockApi, ok, renderApp } from './helpers';
import { staffSession } from '@/pages/staff/session';
import { STAFF_ME, signInStaff } from './staff-helpers';
import { AUDIT_ACTIONS, PAYMENT_PROVIDERS, PAYMENT_STATUSES } from '@/core/audit';

beforeEach(() => staffSession.reload());

type Locale = { console: typeof roConsole; steps: typeof roSteps };
const RO: Locale = { console: roConsole, steps: roSteps };
const EN: Locale = { console: enConsole, steps: enSteps as typeof roSteps };

/** A `steps:a.b` key's text in the steps namespace. */
function stepsText(locale: Locale, key: string): string {
  return key
    .replace(/^steps:/, '')
    .split('.')
    .reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], locale.steps) as string;
}

type FlowFile = { id: string; steps: { id: string; name?: string; title: string }[] };

/** What the console calls each step of a flow file, in the file's order. */
function stepLabels(flow: FlowFile, locale: Locale): string[] {
  return flow.steps.map((step, i) => locale.console.stepLabel.replace('{{position}}', String(i + 1)).replace('{{name}}', stepsText(locale, step.name ?? step.title)));
}

const ROW = {
  id: 12, email: 'ion.popescu@exemplu.ro', name: 'POPESCU ION', cnp: '1900101400010', cui: null, registration_type: 2, flow: 'new-pfa',
  step: 8, step_id: 'requesting-company-step-7', paid: false, status: 'in_progress', partner: 'neafiliat', created_at: '2026-11-20T10:00:00Z',
};
const PARTNERS = { 'GET /api/partner/index': ok([{ id: 1, name: 'Standard', slug: 'neafiliat', is_unaffiliated: true }]) };

const PROFILE = { personal_code: '1900101400010', last_name: 'POPESCU', first_name: 'ION', postal_code: '400001', street: 'Strada Lungă', favourite_colour: 'verde' };

/** GET /api/staff/dossiers/12: the list item and the applicant's request with a profile. */
function dossier() {
  return {
    dossier: ROW,
    request: {
      id: 12, registration_type: 2, step: 'requesting-company-step-7', status: 'in_progress', lost_reason: null, form_data: {}, profile: PROFILE,
      media: { veriff_document_front: null, veriff_document_back: null, selfie_document: null, signature_document: null, diploma_documents: [], driver_license: [], trade_register_documents: [], signed_documents: [] },
      paid: false, paid_at: null, created_at: '2026-11-20T10:00:00Z', signature_file_id: null, ghiseu_card_requested: null, mailing_address: null, status_timeline: [],
      steps: { previous: null, current: { identifier: 'requesting-company-step-7', index: 7 }, next: null, total: 10 }, variants: [],
      partner: { id: 1, name: 'Standard', slug: 'neafiliat', is_unaffiliated: true, description: null, footnote: null, prices: [] },
    },
    caen_codes: [], payments: [], files: [], audit: [],
  };
}

function stepSelect(locale: Locale): HTMLSelectElement {
  return screen.getByRole('combobox', { name: locale.console.list.step }) as HTMLSelectElement;
}

/** The options of a select under each optgroup's label (`''` for those outside a group), the "any" option left out. */
function optionsByGroup(select: HTMLSelectElement): Record<string, string[]> {
  const groups: Record<string, string[]> = {};
  for (const option of Array.from(select.options).filter((o) => o.value)) {
    const group = option.parentElement instanceof HTMLOptGroupElement ? option.parentElement.label : '';
    (groups[group] ??= []).push(option.textContent ?? '');
  }
  return groups;
}

/** The profile section's labels and values, in order. */
function profilePairs(locale: Locale): [string, string][] {
  const section = screen.getByRole('heading', { level: 2, name: locale.console.dossier.profile }).parentElement!;
  const terms = Array.from(section.querySelectorAll('dt'));
  return terms.map((dt) => [dt.textContent ?? '', dt.nextElementSibling?.textContent ?? '']);
}

describe('operator console: steps by name', () => {
  it('the "Pasul curent" filter lists each flow\'s steps as "Pasul N · <name>" in the file\'s order, under the flow\'s name; the row says the step so too', async () => {
    signInStaff();
    mockApi({ ...STAFF_ME, ...PARTNERS, 'GET /api/staff/dossiers': ok({ items: [ROW], total: 1, page: 1, page_size: 20 }) });
    const { user } = renderApp('/staff/dossiers');
    const table = await screen.findByRole('table', { name: 'Dosare găsite: 1' });

    await waitFor(() => expect(stepSelect(RO).options[1].textContent).toMatch(/^Pasul 1 · /));
    expect(optionsByGroup(stepSelect(RO))).toEqual({
      [roConsole.flows['existing-pfa']]: stepLabels(existingPfa, RO),
      [roConsole.flows['new-pfa']]: stepLabels(newPfa, RO),
    });
    // "Pasul 8 · Dosarul tău": the overview, eighth in flows/new-pfa.json.
    expect(stepLabels(newPfa, RO)[7]).toBe(`Pasul 8 · ${roSteps.names.overview}`);
    const cells = within(table).getAllByRole('cell');
    expect(cells.map((c) => c.textContent)).toContain(`Pasul 8 · ${roSteps.names.overview}`);
    expect(cells.map((c) => c.textContent)).not.toContain('requesting-company-step-7');

    // One flow chosen: its steps only, no groups; the value sent is still the step's identifier.
    await user.selectOptions(screen.getByRole('combobox', { name: roConsole.list.flow }), 'existing-pfa');
    await waitFor(() => expect(optionsByGroup(stepSelect(RO))).toEqual({ '': stepLabels(existingPfa, RO) }));
    expect(Array.from(stepSelect(RO).options).map((o) => o.value).slice(1)).toEqual(existingPfa.steps.map((s) => s.id));
  });

  it('the dossier page names the current step and the profile\'s fields by their labels; an unknown field by its key', async () => {
    signInStaff();
    mockApi({ ...STAFF_ME, 'GET /api/staff/dossiers/12': ok(dossier()), 'GET /api/staff/timeline-types': ok([]) });
    renderApp('/staff/dossiers/12');
    await findH1('Dosarul 12: POPESCU ION');
    const summary = screen.getByRole('heading', { level: 2, name: roConsole.dossier.summary }).parentElement!;
    await waitFor(() => expect(within(summary).getByText(roConsole.dossier.fields.step).nextElementSibling?.textContent).toBe(`Pasul 8 · ${roSteps.names.overview}`));

    expect(profilePairs(RO)).toEqual([
      [roSteps.address.firstName, 'ION'],
      [roSteps.address.lastName, 'POPESCU'],
      [roSteps.overview.personalCode, '1900101400010'],
      [roSteps.address.street, 'Strada Lungă'],
      [roSteps.address.postalCode, '400001'],
      ['favourite_colour', 'verde'],
    ]);
    expect(screen.queryByText('first_name')).toBeNull();
  });

  it('in English: the switch in the staff header, step names and labels from the English files, the API asked in English', async () => {
    signInStaff();
    const { calls } = mockApi({ ...STAFF_ME, ...PARTNERS, 'GET /api/staff/dossiers/12': ok(dossier()), 'GET /api/staff/timeline-types': ok([]), 'GET /api/staff/dossiers': ok({ items: [ROW], total: 1, page: 1, page_size: 20 }) });
    const { user } = renderApp('/staff/dossiers/12');
    await findH1('Dosarul 12: POPESCU ION');
    await user.click(screen.getByTestId('language-switch'));
    await findH1('Dossier 12: POPESCU ION');
    const summary = screen.getByRole('heading', { level: 2, name: enConsole.dossier.summary }).parentElement!;
    await waitFor(() => expect(within(summary).getByText(enConsole.dossier.fields.step).nextElementSibling?.textContent).toBe(stepLabels(newPfa, EN)[7]));
    expect(stepLabels(newPfa, EN)[7]).toBe(`Step 8 · ${enSteps.names.overview}`);
    expect(profilePairs(EN).slice(0, 3)).toEqual([
      [enSteps.address.firstName, 'ION'],
      [enSteps.address.lastName, 'POPESCU'],
      [enSteps.overview.personalCode, '1900101400010'],
    ]);
    // The staff client sends the language: the server's messages (toasts, field errors) follow it.
    expect(calls.filter((c) => c.path.startsWith('/api/staff/')).at(0)?.headers['Accept-Language']).toBe('ro');
    await user.click(screen.getByRole('link', { name: enConsole.dossier.back }));
    await waitFor(() => expect(calls.filter((c) => c.path === '/api/staff/dossiers').at(-1)?.headers['Accept-Language']).toBe('en'));
  });

  it('every audit action, payment status and payment provider has its words in Romanian and in English', () => {
    const label = (node: unknown, key: string) => key.split('.').reduce<unknown>((n, part) => (n as Record<string, unknown> | undefined)?.[part], node);
    for (const locale of [roConsole, enConsole]) {
      for (const action of AUDIT_ACTIONS) expect(typeof label(locale.dossier.auditActions, action), action).toBe('string');
      for (const status of PAYMENT_STATUSES) expect(typeof label(locale.dossier.paymentStatuses, status), status).toBe('string');
      for (const provider of PAYMENT_PROVIDERS) expect(typeof label(locale.dossier.paymentProviders, provider), provider).toBe('string');
    }
  });

  it('the dossier page says what the audit log recorded and a payment\'s state in words, not their identifiers', async () => {
    signInStaff();
    const withLog = {
      ...dossier(),
      payments: [{ id: 'pay_1', provider: 'builtin', status: 'paid', amount: 99, currency: 'RON', created_at: '2026-11-20T10:00:00Z', paid_at: '2026-11-20T10:05:00Z' }],
      audit: [
        { id: 2, at: '2026-11-21T09:00:00Z', staff: 'ana@ghiseu.ro', actor: null, action: 'mail.missing_documents', before: null, after: null },
        { id: 1, at: '2026-11-21T08:00:00Z', staff: 'ana@ghiseu.ro', actor: null, action: 'dossier.read', before: null, after: null },
      ],
    };
    mockApi({ ...STAFF_ME, 'GET /api/staff/dossiers/12': ok(withLog), 'GET /api/staff/timeline-types': ok([]) });
    renderApp('/staff/dossiers/12');
    await findH1('Dosarul 12: POPESCU ION');
    const log = screen.getByRole('table', { name: roConsole.dossier.auditCaption });
    const cells = within(log).getAllByRole('cell').map((c) => c.textContent);
    expect(cells).toContain(roConsole.dossier.auditActions.mail.missing_documents);
    expect(cells).toContain(roConsole.dossier.auditActions.dossier.read);
    expect(cells).not.toContain('dossier.read');
    const payments = screen.getByRole('table', { name: roConsole.dossier.paymentsCaption });
    const paymentCells = within(payments).getAllByRole('cell').map((c) => c.textContent);
    expect(paymentCells).toContain(roConsole.dossier.paymentStatuses.paid);
    expect(paymentCells).toContain(roConsole.dossier.paymentProviders.builtin);
    expect(paymentCells).not.toContain('builtin');
  });
});
