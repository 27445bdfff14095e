import { adoptPrerenderedGlobalCss } from './theme';

/**
 * A step page's HTML shell (issue 14, the steps' LCP). The server sends a step's address with its
 * shell prerendered at build time (scripts/prerender.ts `withStepShell`): `<div id="shell"
 * data-route="/infiintare-pfa/3">` (the flow's header, the step's position, heading and guidance)
 * above the app's `<div id="root" hidden>`. The app renders into the hidden root meanwhile and shows
 * itself once it has drawn the step in full (`revealWhenDrawn`), or anything else (`revealApp`): the
 * shell goes, in the same frame.
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

/**
 * What a widget shows in place of what it is still fetching (its options, the identity session):
 * Chakra's `<Spinner>` with an accessible name ("Se încarcă…"). Revealed with one of these inside, the
 * app would grow a moment later as the widget draws, pushing the step's buttons and the footer down (a
 * layout shift; issue 14). A decorative spinner (`aria-hidden`) beside a text that says what is awaited
 * (the identity decision, which may take minutes) is content already drawn, and does not hold the shell.
 */
const LOADING = '.chakra-spinner:not([aria-hidden="true"])';

/** How long the shell waits at most for the step's widgets to draw (a slow answer shows the app, with its spinner, after that). */
export const SHELL_MAX_WAIT_MS = 3000;

/**
 * Shows the app once the step it rendered into the hidden root is drawn in full: at once when the
 * root holds no loading spinner, else when the last one has gone (a MutationObserver: the same frame
 * as React's commit), or after `maxWaitMs`. Returns a cancel (the wizard's effect cleanup).
 */
export function revealWhenDrawn(maxWaitMs = SHELL_MAX_WAIT_MS): () => void {
  if (typeof document === 'undefined') return () => undefined;
  const root = document.getElementById('root');
  if (!root || !document.getElementById('shell') || !root.querySelector(LOADING)) {
    revealApp();
    return () => undefined;
  }
  const observer = new MutationObserver(() => {
    if (!root.querySelector(LOADING)) done();
  });
  const timer = setTimeout(done, maxWaitMs);
  function stop() {
    observer.disconnect();
    clearTimeout(timer);
  }
  function done() {
    stop();
    revealApp();
  }
  observer.observe(root, { childList: true, subtree: true });
  return stop;
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
