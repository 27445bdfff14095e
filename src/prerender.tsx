import { renderToString } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router';
import { createI18n } from './shared/i18n';
import { AppProviders } from './shared/providers';
import { routes } from './app/routes';
import { RegistrationType } from './core/registration';
import { session } from './shared/session';
import { createStyleCache } from './shared/style-nonce';

/**
 * Build-time rendering of the guest pages (issue 14 "first meaningful content without waiting for the
 * JS"): scripts/prerender.ts loads this module (Vite SSR build) and puts each page's HTML, as a guest
 * with nothing loaded yet sees it, inside `<div id="root">` of its `dist/pages/<route>.html`;
 * the page's guest entry (src/guest/render.tsx) renders over it. Not part of the browser bundle.
 */
export async function renderRoute(pathname: string, origin = 'http://localhost'): Promise<string> {
  // /register/account shows its form once a type was chosen on /register: render it as that visitor
  // sees it (the type itself is not shown; without one, the page's entry sends the visitor back).
  if (pathname === '/register/account') session.setRegistrationType(RegistrationType.requestingCompany);
  else session.clear();
  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request(new URL(pathname, origin)));
  if (context instanceof Response) throw new Error(`prerender: ${pathname} answered a redirect to ${context.headers.get('location')}`);
  const router = createStaticRouter(handler.dataRoutes, context);
  return renderToString(
    // A style cache per page: emotion writes each style into the HTML only the first time its cache sees
    // it, so with one cache for all, the pages rendered after the first lacked the styles they share with it.
    <AppProviders i18n={createI18n()} styleCache={createStyleCache()}>
      <StaticRouterProvider router={router} context={context} hydrate={false} />
    </AppProviders>,
  );
}
