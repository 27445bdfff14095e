import { afterEach, describe, expect, it } from 'vitest';
import { adoptShellGlobalStyles, revealApp, revealUnlessAt, shellRoute } from '@/shared/shell';

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
