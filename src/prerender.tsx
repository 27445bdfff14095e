import { renderToString } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, StaticRouterProvider, type RouteObject } from 'react-router';
import { createI18n, loadStepsNamespace } from './shared/i18n';
import { FLOWS } from './engine/flows';
import type { Flow } from './core/flow';
import { ExistingFlowLayout, RequestingFlowLayout } from './pages/flow/FlowLayout';
import { StepShell } from './pages/flow/StepShell';
import { AppProviders } from './shared/providers';
import { routes } from './app/routes';
import { RegistrationType } from './core/registration';
import { session } from './shared/session';
import { createStyleCache } from './shared/style-nonce';
import { preloadStepComponents, stepComponentFiles } from '../widgets/registry';
import type { StepLists } from '../widgets/types';
import { AHEAD_CALLS } from './pages/flow/step-services';

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
    <AppProviders i18n={createI18n()} styleCache={createStyleCache()}>
      <StaticRouterProvider router={router} context={context} hydrate={false} />
    </AppProviders>,
  );
}


/** The flow file and step whose path is `pathname` (each shell function's lookup). */
function flowStepAt(pathname: string, flows: Flow[] = Object.values(FLOWS)) {
  for (const flow of flows) {
    const step = flow.steps.find((s) => s.path === pathname);
    if (step) return { flow, step };
  }
  throw new Error(`prerender: ${pathname} is no step of a flow file`);
}

/** Every step path of both flow files: each gets an HTML shell (`renderStepShell`). */
export function stepShellPaths(): string[] {
  return Object.values(FLOWS).flatMap((flow) => flow.steps.map((step) => step.path));
}

/**
 * What a step page's entry asks the API for before the app has loaded (src/shared/api/ahead.ts), for a
 * user of the flow's registration type: the request of the flow whose step `pathname` is, and the
 * applicant's own data its widgets ask for with it (their `prefetch`, as the flow file names them:
 * the identity session, the overview's data; `AHEAD_CALLS`), found by running their `prefetch` here.
 */
export async function stepShellAsks(pathname: string): Promise<{ open: string; registrationType: number; ahead: string[] }> {
  const { flow, step } = flowStepAt(pathname);
  const asked = new Set<keyof StepLists>();
  const recorder = new Proxy({} as StepLists, {
    get: (_target, key) => () => {
      asked.add(key as keyof StepLists);
      return Promise.resolve([]);
    },
  });
  await preloadStepComponents(step.uiSchema, recorder);
  const ahead = [...asked].map((key) => AHEAD_CALLS[key]).filter((call): call is string => call !== undefined);
  return { open: flow.api.open, registrationType: flow.registrationType, ahead };
}

/** The step each flow file starts at: where a new account goes. */
export function flowStartPaths(): string[] {
  return Object.values(FLOWS).map((flow) => flow.steps[0].path);
}

/**
 * What a step's page loads for the step itself, as the build's manifest names it: the step schema's
 * precompiled validator and the widgets and fields its uiSchema names (the flow file's own; a partner
 * variant that names another widget loads it when the request says so). scripts/prerender.ts preloads
 * their chunks beside the app's entry, so they no longer wait for the step page's chunk to ask for them.
 */
export function stepShellModules(pathname: string): string[] {
  const { step } = flowStepAt(pathname);
  return [`virtual:step-validator/${step.schema}.js`, ...stepComponentFiles(step.uiSchema)];
}

/**
 * A step page's HTML shell (issue 14, LCP of the wizard steps): the flow's header, the step's position,
 * heading and guidance (src/pages/flow/StepShell.tsx) and the footer, as an applicant no variant
 * applies to sees them (`SHELL_CONTEXT`), before the request is known. scripts/prerender.ts puts it in
 * `<div id="shell">` of the step's `dist/pages/<path>.html`, above the app's hidden root
 * (src/shared/shell.ts). `flows`: the flow files (the tests' edited copies).
 */
export async function renderStepShell(pathname: string, origin = 'http://localhost', flows?: Flow[]): Promise<string> {
  const { flow } = flowStepAt(pathname, flows);
  const i18n = createI18n();
  await loadStepsNamespace(i18n);
  const Layout = flow.registrationType === RegistrationType.requestingCompany ? RequestingFlowLayout : ExistingFlowLayout;
  const shellRoutes: RouteObject[] = [{ path: flow.basePath, Component: Layout, children: [{ path: '*', element: <StepShell flow={flow} /> }] }];
  const handler = createStaticHandler(shellRoutes);
  const context = await handler.query(new Request(new URL(pathname, origin)));
  if (context instanceof Response) throw new Error(`prerender: ${pathname} answered ${context.status}`);
  const router = createStaticRouter(handler.dataRoutes, context);
  return renderToString(
    <AppProviders i18n={i18n} styleCache={createStyleCache()}>
      <StaticRouterProvider router={router} context={context} hydrate={false} />
    </AppProviders>,
  );
}
