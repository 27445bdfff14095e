import { StrictMode, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { ChakraProvider, SkipNavLink } from '@chakra-ui/react';
import { CacheProvider } from '@emotion/react';
import { SWRConfig } from 'swr';
import { flowPath } from '@/core/session';
import { session } from '@/shared/session';
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

export interface GuestPage {
  /** The route pattern as in src/app/routes.tsx (`/register/:partner?`): the page's `useParams`. */
  route: string;
  /** Guest only (spec 000 §2.2): a signed-in user is sent to the flow of their registration type, as `guestOnlyLoader` does. */
  guestOnly: boolean;
  page: () => ReactNode;
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
 * The entry of one guest page (src/guest/pages/*.tsx; built by vite.guest.config.ts on Preact). The HTML
 * arrives prerendered (scripts/prerender.ts), so the page shows before this runs; it is then rendered
 * afresh, in the same task (no frame in between), rather than hydrated: the prerender comes from React
 * (react-dom/server) and Preact's generated ids (`useId`: labels, descriptions) differ from React's, which
 * hydration would keep.
 */
export function startGuestPage({ route, guestOnly, page }: GuestPage): void {
  const user = session.user();
  if (guestOnly && user) {
    location.replace(flowPath(user.registration_type));
    return;
  }
  setRoutePattern(route);
  const container = document.getElementById('root')!;
  container.replaceChildren();
  createRoot(container).render(guestTree(page()));
}
