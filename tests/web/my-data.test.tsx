/**
 * "Datele tale", /contul-meu/date (issue 32): what is kept and for how long (the payload's periods),
 * the consents and the marketing withdrawal, the export, the erasure (what remains, the password
 * typed again, the session forgotten), and the way in: the footer, a guest signing in and coming
 * back, never the dashboard. Every text asserted comes from the locale files.
 */
import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import type { UserPrivacy } from '@/core/api-types';
import { browser } from '@/shared/browser';
import { session } from '@/shared/session';
import privacy from '../../locales/ro/privacy.json';
import common from '../../locales/ro/common.json';
import auth from '../../locales/ro/auth.json';
import { CONFIG, findH1, invalid, makeUser, mockApi, ok, renderApp } from './helpers';

const PAGE = '/contul-meu/date';
const PRIVACY = 'GET /api/user/privacy';
const ERASE = 'DELETE /api/user';
const WITHDRAW = 'DELETE /api/user/consents/marketing';
const EXPORT = 'GET /api/user/export';

/** The Romanian text at `key` of a locale tree, `{{name}}` filled in from `values` (`product` from the config). */
function text(tree: unknown, key: string, values: Record<string, string | number> = {}): string {
  const found = key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], tree);
  if (typeof found !== 'string') throw new Error(`no text at ${key}`);
  return found.replace(/\{\{(\w+)\}\}/g, (whole, name: string) => String(name === 'product' ? CONFIG.product_name : (values[name] ?? whole)));
}
const p = (key: string, values?: Record<string, string | number>) => text(privacy, key, values);

/** "183 de zile", "14 zile", "o zi": the unit's Romanian plural form from the locale file. */
const quantity = (unit: 'days' | 'years' | 'times', n: number) => p(`units.${unit}.${new Intl.PluralRules('ro').select(n)}`, { n });

/** Periods unlike any default, so the page can only have them from the payload. */
const PAYLOAD: UserPrivacy = {
  email: 'ana@example.ro',
  consents: {
    terms: { version: 'termeni 25 noiembrie 2026 (3f1c0a9b2d4e); confidentialitate 25 noiembrie 2026 (aa11bb22cc33)', accepted_at: '2026-11-20T10:00:00Z' },
    marketing: { accepted: true, accepted_at: '2026-11-20T10:00:00Z', withdrawn_at: null },
  },
  retention: { unfinished_days: 183, warning_days: 14, id_media_days: 31, lost_days: 1, accounting_years: 10, contract_years: 7 },
  after_erasure: [
    { kind: 'payment', count: 2, keep_until: '2036-12-31' },
    { kind: 'contract', count: 1, keep_until: '2033-11-25' },
    { kind: 'trade_register', count: 1, keep_until: null },
  ],
  exports_per_hour: 3,
};

function signedIn(overrides: Parameters<typeof makeUser>[0] = {}) {
  session.setUser(makeUser(overrides));
}

async function openPage() {
  const app = renderApp(PAGE);
  expect(await findH1(p('title'))).toBeTruthy();
  await screen.findByTestId('privacy-retention');
  return app;
}

describe('"Datele tale": what the page shows', () => {
  it('says what is kept, why and for how long, with the periods of the payload', async () => {
    signedIn();
    mockApi({ [PRIVACY]: ok(PAYLOAD) });
    await openPage();
    const retention = screen.getByTestId('privacy-retention');
    expect(within(retention).getByRole('heading', { level: 2, name: p('retention.title') })).toBeTruthy();
    const { retention: r } = PAYLOAD;
    for (const [key, howLong] of [
      ['account', p('retention.account.howLong', { unfinished: quantity('days', r.unfinished_days), warning: quantity('days', r.warning_days) })],
      ['idMedia', p('retention.idMedia.howLong', { days: quantity('days', r.id_media_days) })],
      ['lost', p('retention.lost.howLong', { days: quantity('days', r.lost_days) })],
      ['payments', p('retention.payments.howLong', { years: quantity('years', r.accounting_years) })],
      ['contract', p('retention.contract.howLong', { years: quantity('years', r.contract_years) })],
    ] as const) {
      const item = within(retention).getByTestId(`retention-${key}`);
      expect(within(item).getByRole('heading', { level: 3 }).textContent).toBe(p(`retention.${key}.title`));
      expect(within(item).getByText(p(`retention.${key}.why`))).toBeTruthy();
      expect(within(item).getByText(howLong)).toBeTruthy();
    }
    // The numbers are the payload's, in words of the right plural form ("183 de zile", "o zi").
    expect(within(retention).getByTestId('retention-account').textContent).toContain('183');
    expect(within(retention).getByTestId('retention-lost').textContent).toContain(p('units.days.one'));
    // The export's limit is the payload's too.
    expect(screen.getByText(p('export.limit', { times: quantity('times', PAYLOAD.exports_per_hour) }))).toBeTruthy();
  });

  it('shows the consents: the terms version and day, the marketing mails; withdrawing them updates the state', async () => {
    signedIn();
    const api = mockApi({
      [PRIVACY]: ok(PAYLOAD),
      [WITHDRAW]: ok({ accepted: false, accepted_at: '2026-11-20T10:00:00Z', withdrawn_at: '2026-11-25T09:30:00Z' }, 'Nu vei mai primi comunicări de marketing de la noi.'),
    });
    const { user } = await openPage();
    const consents = screen.getByTestId('privacy-consents');
    const terms = within(consents).getByTestId('consent-terms');
    expect(within(terms).getByText(p('consents.terms.accepted', { date: '20 noiembrie 2026' }))).toBeTruthy();
    expect(within(terms).getByText(p('consents.terms.version', { version: PAYLOAD.consents.terms!.version }))).toBeTruthy();
    const marketing = within(consents).getByTestId('consent-marketing');
    expect(within(marketing).getByText(p('consents.marketing.accepted', { date: '20 noiembrie 2026' }))).toBeTruthy();

    await user.click(within(marketing).getByRole('button', { name: p('consents.marketing.withdraw') }));
    await waitFor(() => expect(within(marketing).getByText(p('consents.marketing.withdrawn', { accepted: '20 noiembrie 2026', withdrawn: '25 noiembrie 2026' }))).toBeTruthy());
    expect(within(marketing).queryByRole('button', { name: p('consents.marketing.withdraw') })).toBeNull();
    expect(within(consents).getByRole('status').textContent).toContain('Nu vei mai primi comunicări de marketing de la noi.');
    const call = api.apiCalls().find((c) => c.method === 'DELETE')!;
    expect(call.path).toBe('/api/user/consents/marketing');
    expect(call.headers.Authorization).toBe('Bearer tok-123');
    expect(call.headers['X-Requested-With']).toBe('XMLHttpRequest');
  });

  it('a withdrawn or never given marketing consent has no button', async () => {
    signedIn();
    const payload = { ...PAYLOAD, consents: { terms: null, marketing: { accepted: false, accepted_at: null, withdrawn_at: null } } };
    mockApi({ [PRIVACY]: ok(payload) });
    await openPage();
    const consents = screen.getByTestId('privacy-consents');
    expect(within(consents).getByText(p('consents.terms.none'))).toBeTruthy();
    expect(within(consents).getByText(p('consents.marketing.never'))).toBeTruthy();
    expect(within(consents).queryByRole('button')).toBeNull();
  });

  it('lists what remains after the erasure, each with the reason and the day it goes, before the applicant confirms', async () => {
    signedIn();
    mockApi({ [PRIVACY]: ok(PAYLOAD) });
    await openPage();
    const erase = screen.getByTestId('privacy-erase');
    expect(within(erase).getByRole('heading', { level: 2, name: p('erase.title') })).toBeTruthy();
    const remaining = within(erase).getByTestId('privacy-after-erasure');
    expect(within(remaining).getByRole('heading', { level: 3, name: p('erase.keptTitle') })).toBeTruthy();
    const payment = within(remaining).getByTestId('kept-payment');
    expect(within(payment).getByRole('heading', { level: 4 }).textContent).toBe(p('erase.kept.payment.title', { n: 2 }));
    expect(within(payment).getByText(p('erase.kept.payment.why'))).toBeTruthy();
    expect(within(payment).getByText(p('erase.until', { date: '31 decembrie 2036' }))).toBeTruthy();
    const contract = within(remaining).getByTestId('kept-contract');
    expect(within(contract).getByText(p('erase.kept.contract.why'))).toBeTruthy();
    expect(within(contract).getByText(p('erase.until', { date: '25 noiembrie 2033' }))).toBeTruthy();
    const registry = within(remaining).getByTestId('kept-trade_register');
    expect(within(registry).getByText(p('erase.kept.trade_register.why'))).toBeTruthy();
    // Not ours to delete: no day.
    expect(within(registry).queryByText(/^Păstrat până la/)).toBeNull();
    // The list comes before the password and the button.
    const field = within(erase).getByLabelText(p('erase.password'));
    expect(remaining.compareDocumentPosition(field) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('says that nothing remains when the payload lists nothing', async () => {
    signedIn();
    mockApi({ [PRIVACY]: ok({ ...PAYLOAD, after_erasure: [] }) });
    await openPage();
    expect(within(screen.getByTestId('privacy-after-erasure')).getByText(p('erase.nothingKept'))).toBeTruthy();
  });
});

describe('"Datele tale": erasure', () => {
  it('a wrong password shows the field error under the password field and keeps the session', async () => {
    signedIn();
    const api = mockApi({ [PRIVACY]: ok(PAYLOAD), [ERASE]: invalid({ password: ['Parola nu este corectă.'] }) });
    const { user } = await openPage();
    const field = screen.getByLabelText(p('erase.password'));
    await user.type(field, 'gresita');
    await user.click(screen.getByRole('button', { name: p('erase.submit') }));
    await waitFor(() => expect(field.getAttribute('aria-invalid')).toBe('true'));
    // The message is the field's own (it describes the input), not a general alert.
    const described = (field.getAttribute('aria-describedby') ?? '').split(' ').map((id) => document.getElementById(id)?.textContent);
    expect(described).toContain('Parola nu este corectă.');
    expect(within(screen.getByTestId('privacy-erase')).queryByRole('alert')).toBeNull();
    expect(api.apiCalls().find((c) => c.method === 'DELETE')!.body).toEqual({ password: 'gresita' });
    expect(session.user()?.access_token).toBe('tok-123');
    expect(localStorage.getItem('user')).not.toBeNull();
  });

  it('erasing with the password forgets the session and shows the confirmation', async () => {
    signedIn();
    const message = 'Contul tău a fost șters. Ți-am trimis un e-mail de confirmare.';
    const api = mockApi({ [PRIVACY]: ok(PAYLOAD), [ERASE]: ok(null, message) });
    const { user, pathname } = await openPage();
    await user.type(screen.getByLabelText(p('erase.password')), 'parola-sigura-1');
    await user.click(screen.getByRole('button', { name: p('erase.submit') }));
    expect(await findH1(p('erase.doneTitle'))).toBeTruthy();
    expect(screen.getByRole('status').textContent).toContain(message);
    expect(session.user()).toBeNull();
    expect(localStorage.getItem('user')).toBeNull();
    const erase = api.apiCalls().find((c) => c.method === 'DELETE')!;
    expect(erase.path).toBe('/api/user');
    expect(erase.body).toEqual({ password: 'parola-sigura-1' });
    expect(erase.headers.Authorization).toBe('Bearer tok-123');
    // Signed out, the page asks nothing more and stays (no redirect to login).
    const asked = api.apiCalls().length;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(api.apiCalls().length).toBe(asked);
    expect(pathname()).toBe(PAGE);
    expect(screen.getByRole('link', { name: p('erase.home') }).getAttribute('href')).toBe('/');
  });
});

describe('"Datele tale": export', () => {
  it('downloads GET /api/user/export with the token, under the name the server gives', async () => {
    signedIn();
    const api = mockApi({ [PRIVACY]: ok(PAYLOAD), [EXPORT]: { status: 200, body: 'PK' } });
    // The mock's answers carry no Content-Disposition: add the server's to the export's.
    const plain = api.fetchMock.getMockImplementation()!;
    api.fetchMock.mockImplementation(async (input, init) => {
      const response = await plain(input, init);
      if (!String(input).endsWith('/api/user/export')) return response;
      return new Response(await response.blob(), { status: 200, headers: { 'Content-Disposition': 'attachment; filename="date-ghiseu-2026-11-25.zip"' } });
    });
    const save = vi.spyOn(browser, 'save').mockImplementation(() => {});
    const { user } = await openPage();
    await user.click(screen.getByRole('button', { name: p('export.submit') }));
    await waitFor(() => expect(save).toHaveBeenCalledTimes(1));
    expect(save.mock.calls[0][1]).toBe('date-ghiseu-2026-11-25.zip');
    expect((save.mock.calls[0][0] as Blob).size).toBeGreaterThan(0);
    expect(await screen.findByText(p('export.done'))).toBeTruthy();
    const call = api.apiCalls().find((c) => c.path === '/api/user/export')!;
    expect(call.headers.Authorization).toBe('Bearer tok-123');
    expect(call.headers['X-Requested-With']).toBe('XMLHttpRequest');
  });

  it("too many exports (429): the server's message", async () => {
    signedIn();
    const tooMany = 'Ai cerut deja exportul datelor de mai multe ori în ultima oră. Încearcă din nou mai târziu.';
    mockApi({ [PRIVACY]: ok(PAYLOAD), [EXPORT]: { status: 429, body: { message: tooMany, payload: { retry_after: 3000 } } } });
    const save = vi.spyOn(browser, 'save').mockImplementation(() => {});
    const { user } = await openPage();
    await user.click(screen.getByRole('button', { name: p('export.submit') }));
    expect((await within(screen.getByTestId('privacy-export')).findByRole('alert')).textContent).toContain(tooMany);
    expect(save).not.toHaveBeenCalled();
  });
});

describe('"Datele tale": the way in', () => {
  it('every page has it in the footer: the login page, the page itself', async () => {
    mockApi({ [PRIVACY]: ok(PAYLOAD) });
    const login = renderApp('/login');
    await findH1(auth.login.title);
    const footer = screen.getByRole('contentinfo');
    await waitFor(() => expect(within(footer).getByRole('link', { name: common.footer.myData }).getAttribute('href')).toBe(PAGE));
    login.unmount();

    signedIn();
    await openPage();
    expect(within(screen.getByRole('contentinfo')).getByRole('link', { name: common.footer.myData }).getAttribute('href')).toBe(PAGE);
  });

  it('a guest is sent to sign in and comes back, even when the server would hand the user over to the dashboard', async () => {
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => {});
    const api = mockApi({ 'POST /api/login': ok(makeUser({ dashboard_redirect: true })), [PRIVACY]: ok(PAYLOAD), 'GET /api/user/dashboard-redirect': ok(true) });
    const { router, user, pathname } = renderApp(PAGE);
    await waitFor(() => expect(pathname()).toBe('/login'));
    expect(router.state.location.search).toBe('?redirect=my-data');
    await user.type(await screen.findByLabelText(auth.login.email), 'ana@example.ro');
    await user.type(await screen.findByLabelText(auth.login.password), 'parola-sigura-1');
    await user.click(screen.getByRole('button', { name: auth.login.submit }));
    expect(await findH1(p('title'))).toBeTruthy();
    expect(pathname()).toBe(PAGE);
    await screen.findByTestId('privacy-retention');
    expect(assign).not.toHaveBeenCalled();
    expect(api.apiCalls().some((c) => c.path === '/api/user/dashboard-redirect')).toBe(false);
  });

  it('a user handed over to the dashboard opens it and stays: no dashboard check', async () => {
    signedIn({ dashboard_redirect: true, registration_type: 1 });
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => {});
    const api = mockApi({ [PRIVACY]: ok(PAYLOAD), 'GET /api/user/dashboard-redirect': ok(true) });
    const { pathname } = await openPage();
    expect(pathname()).toBe(PAGE);
    expect(assign).not.toHaveBeenCalled();
    expect(api.apiCalls().some((c) => c.path === '/api/user/dashboard-redirect')).toBe(false);
  });

  it('a signed-in user sent to /login?redirect=my-data goes on to the page', async () => {
    signedIn();
    mockApi({ [PRIVACY]: ok(PAYLOAD) });
    const { pathname } = renderApp('/login?redirect=my-data');
    await waitFor(() => expect(pathname()).toBe(PAGE));
    expect(await findH1(p('title'))).toBeTruthy();
  });

  it('/login?redirect= names only account pages: anything else signs in as usual', async () => {
    mockApi({ 'POST /api/login': ok(makeUser({ registration_type: 2 })) });
    const { user, pathname } = renderApp('/login?redirect=https%3A%2F%2Fevil.example');
    await user.type(await screen.findByLabelText(auth.login.email), 'ana@example.ro');
    await user.type(await screen.findByLabelText(auth.login.password), 'parola-sigura-1');
    await user.click(await screen.findByRole('button', { name: auth.login.submit }));
    await waitFor(() => expect(pathname()).toMatch(/^\/infiintare-pfa/));
  });
});
