import { describe, expect, it, vi } from 'vitest';
import { createStepServices, identityService, stepAhead, stepLists } from '@/pages/flow/step-services';
import { AHEAD_FRESH_MS, askForStepShell } from '@/shared/api/ahead';
import { session } from '@/shared/session';
import { FLOWS } from '@/engine/flows';
import { preloadStep, preloadStepAt } from '@/engine/preload';
import { makeUser, mockApi, ok } from './helpers';

const REASONS = [{ identifier: 'niciuna', fe_text: 'Niciuna dintre acestea', fe_subtext: 'Prestez doar servicii, fără angajați și fără TVA', questionnaire_types: [2] }];

describe("the flow's option lists (src/pages/flow/step-services.ts stepLists)", () => {
  it('are asked for once while the page lives: the step page asks ahead with its request, the widget takes that answer', async () => {
    session.setUser(makeUser({ access_token: 'token-a' }));
    const { apiCalls } = mockApi({ 'GET /api/nomenclature/lost-reasons/index': ok(REASONS) });
    await stepAhead(FLOWS[2]).lostReasons();
    const widget = stepLists(FLOWS[2]).lostReasons();
    // The same step shown again: the list as read.
    const again = stepLists(FLOWS[2]).lostReasons();
    expect(await widget).toEqual(REASONS);
    expect(await again).toEqual(REASONS);
    expect(apiCalls().map((c) => `${c.path}?${c.query}`)).toEqual(['/api/nomenclature/lost-reasons/index?registration_type=2']);
    // Another registration type has lists of its own.
    await stepLists(FLOWS[1]).lostReasons();
    expect(apiCalls().map((c) => c.query.get('registration_type'))).toEqual(['2', '1']);
  });

  it('a failed answer is not kept: the widget mounted again asks again', async () => {
    let answers = 0;
    const { apiCalls } = mockApi({
      'GET /api/nomenclature/marital-status/index': () => (++answers === 1 ? { status: 503, body: { message: 'Serviciu indisponibil.', payload: null } } : ok({ data: [{ id: 1, name: 'Comunitatea de bunuri' }] })),
    });
    await expect(stepLists(FLOWS[2]).maritalStatuses()).rejects.toThrow();
    expect(await stepLists(FLOWS[2]).maritalStatuses()).toEqual([{ id: 1, name: 'Comunitatea de bunuri' }]);
    expect(apiCalls()).toHaveLength(2);
  });
});

describe("a step's widgets ask for their lists with the step's request (their `prefetch`)", () => {
  const lists = () => ({ lostReasons: vi.fn(async () => []), activities: vi.fn(async () => []), maritalStatuses: vi.fn(async () => []) });

  it('the questionnaire step asks for the lost reasons, the activities step for the activities, the card step for nothing', async () => {
    const questionnaire = lists();
    await preloadStepAt(FLOWS[2], '/infiintare-pfa/0', questionnaire);
    expect(questionnaire.lostReasons).toHaveBeenCalledTimes(1);
    expect(questionnaire.activities).not.toHaveBeenCalled();

    const activities = lists();
    await preloadStepAt(FLOWS[2], '/infiintare-pfa/2', activities);
    expect(activities.activities).toHaveBeenCalledTimes(1);
    expect(activities.lostReasons).not.toHaveBeenCalled();

    const card = lists();
    await preloadStepAt(FLOWS[2], '/infiintare-pfa/8', card);
    expect(Object.values(card).every((load) => load.mock.calls.length === 0)).toBe(true);
  });

  it('a list that fails or never answers does not hold the step back', async () => {
    const stuck = { ...lists(), lostReasons: vi.fn(() => new Promise<never>(() => undefined)) };
    await expect(preloadStepAt(FLOWS[2], '/infiintare-pfa/0', stuck)).resolves.toBeUndefined();
    const failing = { ...lists(), activities: vi.fn(async () => Promise.reject(new Error('offline'))) };
    await expect(preloadStep(FLOWS[2].steps.find((s) => s.path === '/infiintare-pfa/2')!, failing)).resolves.toBeUndefined();
  });
});

describe("the identity step's last session, asked for ahead by its step page (stepAhead)", () => {
  const LAST = { session_id: 's-1', custom_id: 'c-1', status: 1, submitted: false, uploads: { 'document-front': null, 'document-back': null, face: null } };
  const lastSessionCalls = (calls: { path: string }[]) => calls.filter((c) => c.path === '/api/veriff/get-last-session').length;

  it('the widget’s first call takes the answer asked for ahead; every later call asks the server', async () => {
    session.setUser(makeUser({ access_token: 'token-a' }));
    const { apiCalls } = mockApi({ 'GET /api/veriff/get-last-session': ok(LAST) });
    const ahead = stepAhead(FLOWS[2]).lastIdentitySession!();
    expect(await identityService.lastSession()).toEqual(LAST);
    await ahead;
    expect(lastSessionCalls(apiCalls())).toBe(1);
    // The handed-over phone's polling, a restart: the server's answer of now.
    await identityService.lastSession();
    expect(lastSessionCalls(apiCalls())).toBe(2);
  });

  it('not taken by another signed-in user, nor once stale, nor when it failed', async () => {
    session.setUser(makeUser({ access_token: 'token-a' }));
    let answers = 0;
    const { apiCalls } = mockApi({
      'GET /api/veriff/get-last-session': () => (++answers === 3 ? { status: 503, body: { message: 'Serviciu indisponibil.', payload: null } } : ok(LAST)),
    });
    await stepAhead(FLOWS[2]).lastIdentitySession!();
    session.setUser(makeUser({ access_token: 'token-b' }));
    await identityService.lastSession();
    expect(lastSessionCalls(apiCalls())).toBe(2);

    // Asked ahead, but the widget mounts only after AHEAD_FRESH_MS.
    const now = Date.now();
    const clock = vi.spyOn(Date, 'now');
    clock.mockReturnValue(now);
    expect(((await stepAhead(FLOWS[2]).lastIdentitySession!()) as Response).status).toBe(503);
    clock.mockReturnValue(now + 1);
    await identityService.lastSession();
    expect(lastSessionCalls(apiCalls())).toBe(4);
    await stepAhead(FLOWS[2]).lastIdentitySession!();
    clock.mockReturnValue(now + AHEAD_FRESH_MS + 2);
    await identityService.lastSession();
    clock.mockRestore();
    expect(lastSessionCalls(apiCalls())).toBe(6);
  });

  it('the identity step’s page asks for it with the step’s request; the card step’s does not', async () => {
    const identity = { lostReasons: vi.fn(async () => []), activities: vi.fn(async () => []), maritalStatuses: vi.fn(async () => []), lastIdentitySession: vi.fn(async () => null) };
    await preloadStepAt(FLOWS[2], '/infiintare-pfa/1', identity);
    expect(identity.lastIdentitySession).toHaveBeenCalledTimes(1);
    const card = { ...identity, lastIdentitySession: vi.fn(async () => null) };
    await preloadStepAt(FLOWS[2], '/infiintare-pfa/8', card);
    expect(card.lastIdentitySession).not.toHaveBeenCalled();
    // The wizard's services have no such call: the identity step preloads without it.
    await expect(preloadStepAt(FLOWS[1], '/inregistrare/5', stepLists(FLOWS[1]))).resolves.toBeUndefined();
  });
});

describe("the overview step's data, asked for ahead by its step page (stepAhead)", () => {
  const DATA = { company_name: null, email: 'ana@exemplu.ro', phone: '0712345678', editable: true, codes: [] };
  const overviewCalls = (calls: { path: string }[]) => calls.filter((c) => c.path === '/api/registration/overview').length;
  const caen = () => createStepServices((key) => key, FLOWS[2]).caen;

  it('the widget’s first call takes the answer asked for ahead; a later call asks the server', async () => {
    session.setUser(makeUser({ access_token: 'token-a' }));
    const { apiCalls } = mockApi({ 'GET /api/registration/overview': ok(DATA) });
    const ahead = stepAhead(FLOWS[2]).overview!();
    expect(await caen().overview()).toEqual(DATA);
    await ahead;
    expect(overviewCalls(apiCalls())).toBe(1);
    await caen().overview();
    expect(overviewCalls(apiCalls())).toBe(2);
  });

  it('not taken by another signed-in user, nor once stale', async () => {
    session.setUser(makeUser({ access_token: 'token-a' }));
    const { apiCalls } = mockApi({ 'GET /api/registration/overview': ok(DATA) });
    await stepAhead(FLOWS[2]).overview!();
    session.setUser(makeUser({ access_token: 'token-b' }));
    await caen().overview();
    expect(overviewCalls(apiCalls())).toBe(2);
    const now = Date.now();
    const clock = vi.spyOn(Date, 'now');
    clock.mockReturnValue(now);
    await stepAhead(FLOWS[2]).overview!();
    clock.mockReturnValue(now + AHEAD_FRESH_MS + 1);
    await caen().overview();
    clock.mockRestore();
    expect(overviewCalls(apiCalls())).toBe(4);
  });

  it('the page’s entry asked for it before the app had loaded (the shell names it): the step page and the widget take that answer', async () => {
    session.setUser(makeUser({ access_token: 'token-a', registration_type: 2 }));
    localStorage.setItem('user', JSON.stringify(session.user()));
    const { apiCalls } = mockApi({ 'GET /api/registration/overview': ok(DATA), 'GET /api/registration/open': ok({}) });
    document.body.innerHTML = '<div id="shell" data-route="/infiintare-pfa/7" data-open="/api/registration/open" data-registration-type="2" data-ahead="/api/registration/overview"></div>';
    askForStepShell(document.getElementById('shell')!);
    expect(overviewCalls(apiCalls())).toBe(1);
    // The step page's prefetch, then the widget as it mounts: no second call.
    const ahead = stepAhead(FLOWS[2]).overview!();
    expect(await caen().overview()).toEqual(DATA);
    await ahead;
    expect(overviewCalls(apiCalls())).toBe(1);
    document.body.innerHTML = '';
    localStorage.clear();
  });

  it('the overview step’s page asks for it with the step’s request; the card step’s does not', async () => {
    const ahead = () => ({ lostReasons: vi.fn(async () => []), activities: vi.fn(async () => []), maritalStatuses: vi.fn(async () => []), overview: vi.fn(async () => DATA) });
    const overview = ahead();
    await preloadStepAt(FLOWS[2], '/infiintare-pfa/7', overview);
    expect(overview.overview).toHaveBeenCalledTimes(1);
    const card = ahead();
    await preloadStepAt(FLOWS[2], '/infiintare-pfa/8', card);
    expect(card.overview).not.toHaveBeenCalled();
  });
});
