import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/**
 * A step page's document asks ahead for its request when the router evaluates the step page's chunk,
 * before the app's first render (src/pages/flow/FlowStepsPage.tsx; issue 14): the step's data and
 * widgets arrive sooner, and a render React starts over asks again without sending twice
 * (src/shared/api/ahead.ts).
 */
const USER = { id: 7, access_token: 'jeton', registration_type: 2, email: 'ana@exemplu.ro' };

/** The calls for the request the page's chunk sends as it is evaluated (fetch never answers). */
async function loadPage() {
  vi.resetModules();
  const fetch = vi.fn((_url: string, _init?: RequestInit) => new Promise<Response>(() => undefined));
  vi.stubGlobal('fetch', fetch);
  const page = await import('@/pages/flow/FlowStepsPage');
  const opens = () => fetch.mock.calls.map((c) => String(c[0])).filter((url) => url.startsWith('/api/registration/open'));
  return { page, opens };
}

describe("a step page's opening", () => {
  beforeEach(() => {
    localStorage.setItem('user', JSON.stringify(USER));
    window.history.replaceState(null, '', '/infiintare-pfa/4');
  });
  afterEach(() => {
    localStorage.clear();
    document.body.innerHTML = '';
    vi.restoreAllMocks();
    vi.unstubAllGlobals();
  });

  it('is asked for once, as the chunk is evaluated, on the document of a step page (its shell)', async () => {
    document.body.innerHTML = '<div id="shell" data-route="/infiintare-pfa/4"></div><div id="root" hidden></div>';
    const { opens } = await loadPage();
    expect(opens()).toHaveLength(1);
    expect(opens()[0]).toMatch(/^\/api\/registration\/open\?timestamp=\d+$/);
    // Asked again (a render React starts over): nothing sent twice.
    const { askAhead } = await import('@/shared/api/ahead');
    askAhead('/api/registration/open', 'jeton', '/api/registration/open?timestamp=1');
    expect(opens()).toHaveLength(1);
  });

  it('is not asked for early without a shell (the app came here itself), for a guest, or at another flow’s address', async () => {
    document.body.innerHTML = '<div id="root"></div>';
    expect((await loadPage()).opens()).toEqual([]);

    document.body.innerHTML = '<div id="shell" data-route="/infiintare-pfa/4"></div><div id="root" hidden></div>';
    localStorage.clear();
    expect((await loadPage()).opens()).toEqual([]);

    localStorage.setItem('user', JSON.stringify(USER));
    window.history.replaceState(null, '', '/inregistrare/2');
    document.body.innerHTML = '<div id="shell" data-route="/inregistrare/2"></div><div id="root" hidden></div>';
    expect((await loadPage()).opens()).toEqual([]);
  });
});
