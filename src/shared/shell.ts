import { adoptPrerenderedGlobalCss } from './theme';

/**
 * A step page's HTML shell (issue 14, the steps' LCP). The server sends a step's address with its
 * shell prerendered at build time (scripts/prerender.ts `withStepShell`): `<div id="shell"
 * data-route="/infiintare-pfa/3">` (the flow's header, the step's position, heading and guidance)
 * above the app's `<div id="root" hidden>`. The app renders into the hidden root meanwhile and shows
 * itself once it draws the step, or anything else (`revealApp`): the shell goes, in the same frame.
 */

/** The path whose shell the page shows, or null (no shell, or already gone). */
export function shellRoute(): string | null {
  if (typeof document === 'undefined') return null;
  return document.getElementById('shell')?.getAttribute('data-route') ?? null;
}

/** Removes the shell and shows the app's root (idempotent; nothing on a page without a shell). */
export function revealApp(): void {
  if (typeof document === 'undefined') return;
  const shell = document.getElementById('shell');
  if (!shell) return;
  shell.remove();
  document.getElementById('root')?.removeAttribute('hidden');
}

/** Shows the app unless it is at the shell's own path (where the wizard reveals it once the step renders). */
export function revealUnlessAt(pathname: string): void {
  const route = shellRoute();
  if (route !== null && route !== pathname.replace(/(.)\/+$/, '$1')) revealApp();
}

/**
 * The shell's prerendered global styles into <head>, where they outlive the shell, and the Chakra
 * system told so (`adoptPrerenderedGlobalCss`, src/shared/theme.ts: about 20 KB of CSS neither built,
 * serialized nor hashed while the step page starts: issue 14, TBT); says whether there were any.
 */
export function adoptShellGlobalStyles(): boolean {
  if (typeof document === 'undefined') return false;
  const shell = document.getElementById('shell');
  return shell !== null && adoptPrerenderedGlobalCss(shell) > 0;
}
