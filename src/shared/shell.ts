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
 * Moves the shell's prerendered global styles (`css-global`: Chakra's reset, global styles and a CSS
 * variable per token, and the cascade layers' order) into <head>, where they outlive the shell, and
 * says whether there were any. The app then tells its Chakra system its global CSS is in the page
 * (`_globalInDocument`, src/main.tsx): the browser build (vite.config.ts) builds that CSS only when
 * `<ChakraProvider>` renders it, which it then does not (about 20 KB of CSS neither built, serialized
 * nor hashed while the step page starts: issue 14, TBT).
 */
export function adoptShellGlobalStyles(): boolean {
  if (typeof document === 'undefined') return false;
  const styles = document.querySelectorAll('#shell style[data-emotion^="css-global "]');
  const firstInHead = document.head.querySelector('style[data-emotion]');
  for (const style of styles) document.head.insertBefore(style, firstInHead);
  return styles.length > 0;
}
