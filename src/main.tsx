import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { createI18n } from './shared/i18n';
import { AppProviders } from './shared/providers';
import { routes } from './app/routes';

const i18n = createI18n();
const router = createBrowserRouter(routes);
const container = document.getElementById('root')!;
const app = (
  <StrictMode>
    <AppProviders i18n={i18n}>
      <RouterProvider router={router} />
    </AppProviders>
  </StrictMode>
);

/**
 * A guest page's HTML is prerendered at build time (`data-prerendered`, scripts/prerender.ts): once the
 * router has loaded that route's chunk, hydrate it. If the router ends elsewhere (a signed-in user is
 * sent to their flow), render from scratch.
 */
const prerendered = container.dataset.prerendered;
if (prerendered) {
  const start = () => {
    if (router.state.location.pathname.replace(/(.)\/$/, '$1') === prerendered && !router.state.navigation.location) {
      hydrateRoot(container, app);
    } else {
      container.replaceChildren();
      createRoot(container).render(app);
    }
  };
  if (router.state.initialized) start();
  else {
    const unsubscribe = router.subscribe((state) => {
      if (!state.initialized) return;
      unsubscribe();
      start();
    });
  }
} else {
  createRoot(container).render(app);
}
