import { StrictMode, type ComponentType, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { ChakraProvider, SkipNavLink } from '@chakra-ui/react';
import { CacheProvider } from '@emotion/react';
import { SWRConfig } from 'swr';
import { createStyleCache } from '@/shared/style-nonce';
import { system } from '@/shared/theme';
import { useT } from '@/shared/useT';
import { setRoutePattern } from './navigation';

/**
 * Created before anything renders: emotion moves the page's prerendered <style> elements into <head>
 * and keeps them, so the prerendered page stays styled while it is rendered again below.
 */
const styleCache = createStyleCache();

function SkipLink() {
  const t = useT('common');
  return <SkipNavLink id="main">{t('skipToContent')}</SkipNavLink>;
}

export function guestTree(page: ReactNode): ReactNode {
  return (
    <StrictMode>
      <CacheProvider value={styleCache}>
        <ChakraProvider value={system}>
          <SWRConfig value={{ shouldRetryOnError: false }}>
            <SkipLink />
            {page}
          </SWRConfig>
        </ChakraProvider>
      </CacheProvider>
    </StrictMode>
  );
}

/**
 * Renders the page afresh over its prerendered markup, in one task (no frame shows an empty page),
 * rather than hydrating it: the prerender comes from React (react-dom/server), and Preact's generated
 * ids (`useId`: labels, error descriptions) differ from React's, which hydration would keep.
 */
export function renderGuestPage(route: string, Page: ComponentType): void {
  setRoutePattern(route);
  const container = document.getElementById('root')!;
  // The prerendered global styles (Chakra's reset and design tokens, `css-global`) go to <head> too,
  // where emotion's <Global> finds and keeps them instead of building and inserting them again.
  const firstInHead = document.head.querySelector('style[data-emotion]');
  for (const style of container.querySelectorAll('style[data-emotion^="css-global "]')) document.head.insertBefore(style, firstInHead);
  container.replaceChildren();
  createRoot(container).render(guestTree(<Page />));
}
