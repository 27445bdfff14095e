import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { CONFIG_PATH, takeAhead } from './shared/api/ahead';
import { preloadConfig } from './shared/api/hooks';
import { createI18n, setLanguage } from './shared/i18n';
import { DEFAULT_LANGUAGE, storedLanguage } from './shared/language';
import { AppProviders } from './shared/providers';
import { session } from './shared/session';
import { adoptShellGlobalStyles } from './shared/shell';
import { routes } from './app/routes';

/**
 * The app. The guest pages (/login, /register, /register/account, /password/forgot) are documents of
 * their own with a light entry (src/guest/), loaded when the browser opens them; the app still shows
 * them when it navigates there itself (after a sign-out, or a 401), with the same components.
 */
/** Lets the browser in (input, a paint) between the app's start-up phases: each phase is a task of its own. */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * Evaluating the entry's modules is one task already (React DOM, Chakra and its system); what the app
 * then does before its first render is cut into tasks of their own (issue 14, TBT: Lighthouse counts
 * each task's time above 50 ms at its 4× CPU slowdown). The router comes first, in the task after the
 * modules': it starts loading the page's lazy route (a step page asks for its request and widgets as
 * that chunk is evaluated).
 */
async function start() {
  // The settings a step page's entry asked for ahead (src/shared/api/ahead.ts), for the first `useConfig`.
  const earlyConfig = takeAhead(CONFIG_PATH, session.token());
  if (earlyConfig) preloadConfig(earlyConfig);
  await nextTask();
  const router = createBrowserRouter(routes);
  await nextTask();
  // A step page's shell brought Chakra's global CSS: <ChakraProvider> neither builds nor renders it again.
  adoptShellGlobalStyles();
  const i18n = createI18n();
  // English, when chosen (src/shared/language.ts), is loaded before the first render: no Romanian flashes by.
  const language = storedLanguage();
  if (language !== DEFAULT_LANGUAGE) await setLanguage(i18n, language).catch(() => undefined);
  await nextTask();
  const root = createRoot(document.getElementById('root')!);
  // A transition: React renders the first page in slices of ~5 ms and lets the browser in between
  // (issue 14, TBT), instead of one long task; a step page shows its prerendered shell meanwhile.
  startTransition(() => {
    root.render(
      <StrictMode>
        <AppProviders i18n={i18n}>
          <RouterProvider router={router} />
        </AppProviders>
      </StrictMode>,
    );
  });
}

void start();
