import { useSyncExternalStore } from 'react';

const hasMatchMedia = () => typeof window !== 'undefined' && typeof window.matchMedia === 'function';

/**
 * Whether a media query matches now, kept up to date as it changes. `serverValue` is what the HTML
 * prerendered at build time (scripts/prerender.ts) and a browser without matchMedia assume.
 */
export function useMediaQuery(query: string, serverValue: boolean): boolean {
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
