import { useSyncExternalStore } from 'react';

const hasMatchMedia = () => typeof window !== 'undefined' && typeof window.matchMedia === 'function';

/**
 * Whether a CSS media query matches now, kept up to date as it changes (a rotated tablet, a resized
 * window). `serverValue` is what the HTML prerendered at build time (scripts/prerender.ts) and a
 * browser without matchMedia assume. Here, not in src/shared, so that the widgets may use it too
 * (DESIGN.md: widgets never import the app; the app's pages may import widgets/shared).
 */
export function useMediaQuery(query: string, serverValue = false): boolean {
  return useSyncExternalStore(
    (onChange) => {
      if (!hasMatchMedia()) return () => {};
      const list = window.matchMedia(query);
      list.addEventListener?.('change', onChange);
      return () => list.removeEventListener?.('change', onChange);
    },
    () => (hasMatchMedia() ? window.matchMedia(query).matches : serverValue),
    () => serverValue,
  );
}
