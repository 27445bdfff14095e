import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/**
 * A step page's document asks for its request when the router evaluates the step page's chunk, before
 * the app's first render (src/pages/flow/FlowStepsPage.tsx; issue 14): the step's data and widgets
 * arrive sooner, and a render React starts over takes the same request instead of asking twice.
 */
const USER = { id: 7, access_token: 'jeton', registration_type: 2, email: 'ana@exemplu.ro' };

async function loadPage() {
  vi.resetModules();
  const { api } = await import('@/shared/api/client');
  const get = vi.spyOn(api, 'get').mockImplementation(() => new Promise(() => undefined));
  await import('@/pages/flow/FlowStepsPage');
  return get;
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
  });

  it('is asked for once, as the chunk is evaluated, on the document of a step page (its shell)', async () => {
    document.body.innerHTML = '<div id="shell" data-route="/infiintare-pfa/4"></div><div id="root" hidden></div>';
    const get = await loadPage();
    expect(get).toHaveBeenCalledTimes(1);
    expect(get.mock.calls[0][0]).toMatch(/^\/api\/registration\/open\?timestamp=\d+$/);
  });

  it('is not asked for early without a shell (the app came here itself), for a guest, or at another flow’s address', async () => {
    document.body.innerHTML = '<div id="root"></div>';
    expect(await loadPage()).not.toHaveBeenCalled();

    document.body.innerHTML = '<div id="shell" data-route="/infiintare-pfa/4"></div><div id="root" hidden></div>';
    localStorage.clear();
    expect(await loadPage()).not.toHaveBeenCalled();

    localStorage.setItem('user', JSON.stringify(USER));
    window.history.replaceState(null, '', '/inregistrare/2');
    document.body.innerHTML = '<div id="shell" data-route="/inregistrare/2"></div><div id="root" hidden></div>';
    expect(await loadPage()).not.toHaveBeenCalled();
  });
});
