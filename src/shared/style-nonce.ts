import createCache, { type EmotionCache } from '@emotion/cache';

/**
 * The style nonce the server put into this page (`<meta property="csp-nonce">`, server/plugins/
 * security-headers.ts): its Content-Security-Policy allows only <style> elements that carry it.
 * Undefined in the Vite dev server and in tests, where no policy applies.
 */
export function styleNonce(): string | undefined {
  if (typeof document === 'undefined') return undefined;
  return document.querySelector('meta[property="csp-nonce"]')?.getAttribute('content') || undefined;
}

/** Emotion's cache (Chakra UI's styles) with the page's nonce on every <style> element it adds. */
export function createStyleCache(): EmotionCache {
  return createCache({ key: 'css', nonce: styleNonce() });
}
