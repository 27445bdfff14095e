import { createElement, lazy, Suspense, type ComponentType } from 'react';

/**
 * The names flow files may use: `"ui:widget": "<name>"` for one field, `"ui:field": "<name>"`
 * for a whole step form. Each loads lazily, so a step only downloads its own widgets.
 * Add a widget: create widgets/<name>/, add one line here, use the name in a flow file.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyProps = any;
type Loader = () => Promise<{ default: ComponentType<AnyProps> }>;

/** A registered component that loads on first use, or earlier through `preload()`. */
interface LazyEntry {
  Component: ComponentType<AnyProps>;
  preload(): Promise<unknown>;
}

/**
 * rjsf wants plain components, not React.lazy objects: each name is a component with its own
 * Suspense boundary around a React.lazy of its chunk. `preload()` starts the download earlier
 * (`preloadStepComponents`, while the request is on its way); the lazy component then waits for
 * that same download. The tree never changes shape, so the component is mounted once.
 */
export function lazyComponent(load: Loader): LazyEntry {
  let pending: Promise<{ default: ComponentType<AnyProps> }> | undefined;
  const preload = () =>
    (pending ??= load().catch((error: unknown) => {
      // A failed download may be tried again later (the error boundary shows it meanwhile).
      pending = undefined;
      throw error;
    }));
  const Lazy = lazy(preload);
  const Component = (props: AnyProps) => createElement(Suspense, { fallback: null }, createElement(Lazy, props));
  return { Component, preload };
}

const widgetEntries: Record<string, LazyEntry> = {
  questionnaire: lazyComponent(() => import('./questionnaire/QuestionnaireWidget')),
  cardChoice: lazyComponent(() => import('./card-choice/CardChoiceWidget')),
  pricePlans: lazyComponent(() => import('./price-plans/PricePlansWidget')),
};

const fieldEntries: Record<string, LazyEntry> = {
  activities: lazyComponent(() => import('./activities/ActivitiesField')),
  civilStatus: lazyComponent(() => import('./civil-status/CivilStatusField')),
  identity: lazyComponent(() => import('./id-capture/IdentityField')),
  signature: lazyComponent(() => import('./signature-pad/SignatureField')),
  mailingAddress: lazyComponent(() => import('./mailing-address/MailingAddressField')),
  icreditOffice: lazyComponent(() => import('./icredit-office/IcreditOfficeField')),
  documents: lazyComponent(() => import('./documents/DocumentsField')),
  overview: lazyComponent(() => import('./overview/OverviewField')),
  confirmCompany: lazyComponent(() => import('./confirm-company/ConfirmCompanyField')),
};

const components = (entries: Record<string, LazyEntry>) => Object.fromEntries(Object.entries(entries).map(([name, entry]) => [name, entry.Component]));

export const widgets: Record<string, ComponentType<AnyProps>> = components(widgetEntries);
export const fields: Record<string, ComponentType<AnyProps>> = components(fieldEntries);

/**
 * Starts downloading the widgets and fields a step's uiSchema names (`ui:widget`, `ui:field`, at
 * any depth), so that they arrive together with the step's data instead of after its first render.
 * Names that are not registered here are left to rjsf. Resolves when all have arrived.
 */
export function preloadStepComponents(uiSchema: unknown): Promise<unknown> {
  const loads: Promise<unknown>[] = [];
  const walk = (node: unknown) => {
    if (!node || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node)) {
      if (key === 'ui:widget' && typeof value === 'string' && Object.hasOwn(widgetEntries, value)) loads.push(widgetEntries[value].preload());
      else if (key === 'ui:field' && typeof value === 'string' && Object.hasOwn(fieldEntries, value)) loads.push(fieldEntries[value].preload());
      else walk(value);
    }
  };
  walk(uiSchema);
  return Promise.all(loads);
}
