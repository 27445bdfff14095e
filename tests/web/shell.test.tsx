import { afterEach, describe, expect, it } from 'vitest';
import { revealApp, revealUnlessAt, shellRoute } from '@/shared/shell';

/** The body of a step page as the server sends it (scripts/prerender.ts withStepShell). */
function stepPage(route: string) {
  document.body.innerHTML = `<div id="shell" data-route="${route}"><h1>Care este codul fiscal (CUI/CIF) al PFA-ului tău?</h1></div><div id="root" hidden></div>`;
  return { root: document.getElementById('root')! };
}

describe('the step shell hand-over', () => {
  afterEach(() => {
    document.body.innerHTML = '';
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
});
