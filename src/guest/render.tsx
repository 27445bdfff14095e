import { StrictMode, type ComponentType, type ReactNode } from 'react';
import { render, type ComponentChild } from 'preact';
import { ChakraProvider, SkipNavLink } from '@chakra-ui/react';
import { CacheProvider } from '@emotion/react';
import { SWRConfig } from 'swr';
import { createStyleCache } from '@/shared/style-nonce';
import { adoptPrerenderedGlobalCss, system } from '@/shared/theme';
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
 * Renders the page INTO its prerendered markup, reusing its DOM nodes: Preact's `render` (not
 * preact/compat's, which empties the container first as React's `createRoot` does) diffs the first
 * render against the container's existing children, element by element, and patches what differs
 * (attributes read from the DOM, text), so the prerendered elements stay on screen and are not painted
 * again (the page's LCP element, e.g. /register's intro, keeps its first paint). Not Preact's `hydrate`:
 * that keeps the DOM's attributes as they are, and the prerender comes from React (react-dom/server),
 * whose generated ids (`useId`: labels, error descriptions, the ids zag's state machines look elements
 * up by) differ from Preact's; this render sets Preact's ids on the reused elements. Elements the page
 * no longer has (React's `<!-- -->` text separators) are removed; none is moved (re-inserted).
 */
export function renderGuestPage(route: string, Page: ComponentType): void {
  setRoutePattern(route);
  const container = document.getElementById('root')!;
  // The prerendered global styles (Chakra's reset and design tokens, `css-global`) are in <head> (emotion's
  // cache moved every prerendered <style> there when it was created, above), where emotion's <Global> for
  // the cascade layers finds and keeps its own; the one for the system's global CSS is not rendered at all:
  // the guest build's edit of Chakra (scripts/vite-plugin-chakra-system.ts `chakraGlobalFromPage`) skips
  // it once told that CSS is in the page, so it is neither built nor serialized again.
  adoptPrerenderedGlobalCss(container);
  // React's prerender hoists the logo's `<link rel="preload">` to the start of the page's markup: it goes
  // to <head> (the image is requested already), else Preact, whose first element would not be the
  // container's first node, would move (re-insert, so lay out and paint again) every element after it.
  for (const link of container.querySelectorAll(':scope > link')) document.head.appendChild(link);
  const typed = typedValues(container);
  // The guest build aliases `react` to preact/compat: the tree is Preact's vnodes, typed as React's.
  render(guestTree(<Page />) as unknown as ComponentChild, container);
  giveBack(typed);
}

/** The text fields of the prerendered page that hold something: typed before the script ran. */
function typedValues(container: HTMLElement): Map<HTMLInputElement | HTMLTextAreaElement, string> {
  const fields = container.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>('textarea, input:not([type]), input[type=text], input[type=email], input[type=password], input[type=tel], input[type=search], input[type=url], input[type=number]');
  return new Map([...fields].filter((field) => field.value !== '').map((field) => [field, field.value]));
}

/**
 * The first render sets each controlled field to its state's value (empty), wiping what the applicant
 * typed while the script loaded (a slow phone: seconds). Each such field gets its text back as if typed
 * now (an `input` event), so the page's state holds it too and it is what the form sends.
 */
function giveBack(typed: Map<HTMLInputElement | HTMLTextAreaElement, string>): void {
  for (const [field, value] of typed) {
    if (!field.isConnected || field.value === value) continue;
    field.value = value;
    field.dispatchEvent(new Event('input', { bubbles: true }));
  }
}
