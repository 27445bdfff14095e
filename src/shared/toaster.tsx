import { useLayoutEffect, type RefObject } from 'react';
import { createToaster } from '@chakra-ui/react';

/** App-wide toasts: top end, 5 seconds (spec 001 §8, 000 §9). */
export const TOAST_DURATION_MS = 5000;

/** Where the toasts start from the top: below the page's header (its actions stay uncovered), else 1rem. */
export const TOASTS_TOP_VAR = '--toasts-top';

export const toaster = createToaster({
  placement: 'top-end',
  duration: TOAST_DURATION_MS,
  pauseOnPageIdle: true,
  offsets: { top: `var(${TOASTS_TOP_VAR}, 1rem)`, right: '1rem', bottom: '1rem', left: '1rem' },
});

/**
 * Keeps the toasts below `header` (issue 17: a toast covered "Ieșire din cont"): sets the top
 * offset to the header's bottom edge, following its size (a wrapped title on a phone).
 */
export function useToastsBelow(header: RefObject<HTMLElement | null>): void {
  useLayoutEffect(() => {
    const element = header.current;
    if (!element) return;
    const root = document.documentElement;
    const place = () => root.style.setProperty(TOASTS_TOP_VAR, `${Math.ceil(element.getBoundingClientRect().bottom + window.scrollY) + 8}px`);
    place();
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(place);
    observer?.observe(element);
    return () => {
      observer?.disconnect();
      root.style.removeProperty(TOASTS_TOP_VAR);
    };
  }, [header]);
}
