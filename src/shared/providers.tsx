import { lazy, Suspense, useSyncExternalStore, type ReactNode } from 'react';
import { ChakraProvider } from '@chakra-ui/react';
import { CacheProvider } from '@emotion/react';
import type { EmotionCache } from '@emotion/cache';
import type { i18n as I18n } from 'i18next';
import { I18nextProvider } from 'react-i18next';
import { SWRConfig, type SWRConfiguration } from 'swr';
import { system } from './theme';
import { createStyleCache } from './style-nonce';

const Toaster = lazy(() => import('./toaster-view').then((m) => ({ default: m.Toaster })));

const noSubscription = () => () => {};

/** One emotion cache for the page: its <style> elements carry the CSP nonce. */
const styleCache = createStyleCache();

/**
 * Everything around the router: design system, copy, data cache, toasts.
 * `styleCache`: the build-time prerender (src/prerender.tsx) gives each page a cache of its own, as
 * emotion writes a style into the HTML only the first time its cache sees it.
 */
export function AppProviders({
  i18n,
  swr,
  styleCache: cache = styleCache,
  children,
}: {
  i18n: I18n;
  swr?: SWRConfiguration;
  styleCache?: EmotionCache;
  children: ReactNode;
}) {
  // The toasts' view is not in the HTML prerendered at build time: while hydrating, it mounts right after.
  const mounted = useSyncExternalStore(noSubscription, () => true, () => false);
  return (
    <CacheProvider value={cache}>
      <ChakraProvider value={system}>
        <I18nextProvider i18n={i18n}>
          <SWRConfig value={{ shouldRetryOnError: false, ...swr }}>
            {children}
            {mounted && (
              <Suspense fallback={null}>
                <Toaster />
              </Suspense>
            )}
          </SWRConfig>
        </I18nextProvider>
      </ChakraProvider>
    </CacheProvider>
  );
}
