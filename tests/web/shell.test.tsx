import { afterEach, describe, expect, it, vi } from 'vitest';
import { adoptShellGlobalStyles, revealApp, revealUnlessAt, revealWhenDrawn, SHELL_MAX_WAIT_MS, shellRoute } from '@/shared/shell';

/** The body of a step page as the server sends it (scripts/prerender.ts withStepShell). */
function stepPage(route: string) {
  document.body.innerHTML = `<div id="shell" data-route="${route}"><h1>Care este codul fiscal (CUI/CIF) al PFA-ului tău?</h1></div><div id="root" hidden></div>`;
  return { root: document.getElementById('root')! };
}

describe('the step shell hand-over', () => {
  afterEach(() => {
    document.body.innerHTML = '';
    document.head.innerHTML = '';
  });

  it('stays while the app is at the shell’s own step (with or without a trailing slash)', () => {
    const { root } = stepPage('/inregistrare/2');
    expect(shellRoute()).toBe('/inregistrare/2');
    revealUnlessAt('/inregistrare/2');
    revealUnlessAt('/inregistrare/2/');
    expect(document.getElementById('shell')).not.toBeNull();
    expect(root.hidden).toBe(true);
  });

  it('goes, and the app shows, at any other address (a redirect to the current step, to login)', () => {
    const { root } = stepPage('/inregistrare/2');
    revealUnlessAt('/inregistrare/3');
    expect(document.getElementById('shell')).toBeNull();
    expect(root.hidden).toBe(false);
    expect(shellRoute()).toBeNull();
  });

  it('revealApp is idempotent and does nothing on a page without a shell', () => {
    document.body.innerHTML = '<div id="root"></div>';
    revealApp();
    revealUnlessAt('/login');
    expect(document.getElementById('root')!.hidden).toBe(false);
    const { root } = stepPage('/infiintare-pfa/0');
    revealApp();
    revealApp();
    expect(root.hidden).toBe(false);
  });

  it('waits for the step to be drawn in full: not while a widget still shows its loading spinner', async () => {
    const { root } = stepPage('/infiintare-pfa/0');
    root.innerHTML = '<h1>Selectează opțiunile</h1><span class="chakra-spinner" aria-label="Se încarcă…"></span><button>Mergi la următorul pas</button>';
    revealWhenDrawn();
    await Promise.resolve();
    expect(document.getElementById('shell')).not.toBeNull();
    expect(root.hidden).toBe(true);
    // The options arrive: the widget draws them in the spinner's place.
    root.querySelector('.chakra-spinner')!.replaceWith(Object.assign(document.createElement('label'), { textContent: 'Niciuna dintre acestea' }));
    await vi.waitFor(() => expect(root.hidden).toBe(false));
    expect(document.getElementById('shell')).toBeNull();
  });

  it('reveals at once when nothing is loading (a decorative spinner is no loading), and after the longest wait when a widget keeps loading', () => {
    vi.useFakeTimers();
    try {
      const first = stepPage('/inregistrare/2');
      first.root.innerHTML = '<h1>Care este codul fiscal (CUI/CIF) al PFA-ului tău?</h1>';
      revealWhenDrawn();
      expect(first.root.hidden).toBe(false);

      // The identity step waiting for the decision: a decorative spinner beside its text is the step drawn.
      const waiting = stepPage('/inregistrare/5');
      waiting.root.innerHTML = '<div role="status"><span class="chakra-spinner" aria-hidden="true"></span><p>Verificăm fotografiile tale. De obicei durează câteva minute; poți rămâne pe această pagină.</p></div>';
      revealWhenDrawn();
      expect(waiting.root.hidden).toBe(false);

      const { root } = stepPage('/infiintare-pfa/1');
      root.innerHTML = '<span class="chakra-spinner" aria-label="Se încarcă…"></span>';
      revealWhenDrawn();
      vi.advanceTimersByTime(SHELL_MAX_WAIT_MS - 1);
      expect(root.hidden).toBe(true);
      vi.advanceTimersByTime(1);
      expect(root.hidden).toBe(false);
      expect(document.getElementById('shell')).toBeNull();
    } finally {
      vi.useRealTimers();
    }
  });

  it('stops waiting when cancelled (the wizard went away): the shell is left to whoever shows the app next', () => {
    vi.useFakeTimers();
    try {
      const { root } = stepPage('/infiintare-pfa/1');
      root.innerHTML = '<span class="chakra-spinner" aria-label="Se încarcă…"></span>';
      const cancel = revealWhenDrawn();
      cancel();
      vi.advanceTimersByTime(SHELL_MAX_WAIT_MS);
      expect(root.hidden).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  it('keeps the shell’s global styles in <head>, before the page’s other styles, once the shell has gone', () => {
    document.head.innerHTML = '<style data-emotion="css 1abc">.css-1abc{}</style>';
    stepPage('/infiintare-pfa/7');
    const shell = document.getElementById('shell')!;
    shell.insertAdjacentHTML(
      'afterbegin',
      '<style data-emotion="css-global layers">@layer reset, base;</style><style data-emotion="css-global tokens">:where(:root){--chakra-colors-red-500:#ef4444}</style><style data-emotion="css 2def">.css-2def{}</style>',
    );
    expect(adoptShellGlobalStyles()).toBe(true);
    revealApp();
    expect([...document.head.querySelectorAll('style')].map((s) => s.getAttribute('data-emotion'))).toEqual(['css-global layers', 'css-global tokens', 'css 1abc']);
  });

  it('says when a page brought no global styles (no shell, or a shell without them)', () => {
    document.body.innerHTML = '<div id="root"></div>';
    expect(adoptShellGlobalStyles()).toBe(false);
    stepPage('/inregistrare/2');
    expect(adoptShellGlobalStyles()).toBe(false);
  });
});
