import { createElement, lazy, Suspense, type ComponentType } from 'react';
import names from './names.json';
import type { StepLists, WidgetModule } from './types';

/**
 * The names flow files may use: `"ui:widget": "<name>"` for one field, `"ui:field": "<name>"`
 * for a whole step form. Each loads lazily, so a step only downloads its own widgets.
 * Add a widget: create widgets/<name>/<Name>Widget.tsx (or …Field.tsx for a whole step form), add
 * its name and file to widgets/names.json, use the name in a flow file.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyProps = any;
type Loader = () => Promise<WidgetModule>;

/** A registered component that loads on first use, or earlier through `preload()`. */
interface LazyEntry {
  Component: ComponentType<AnyProps>;
  preload(): Promise<WidgetModule>;
}

/**
 * rjsf wants plain components, not React.lazy objects: each name is a component with its own
 * Suspense boundary around a React.lazy of its chunk. `preload()` starts the download earlier
 * (`preloadStepComponents`, while the request is on its way); the lazy component then waits for
 * that same download. The tree never changes shape, so the component is mounted once.
 */
export function lazyComponent(load: Loader): LazyEntry {
  let pending: Promise<WidgetModule> | undefined;
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

/**
 * Each name's module, in widgets/names.json (name → file under widgets/): the server's flow check
 * reads the names there without importing widgets, and the build's step pages preload a step's
 * modules from it (scripts/prerender.ts). One lazy chunk per module.
 */
const modules = import.meta.glob<WidgetModule>(['./*/*Widget.tsx', './*/*Field.tsx']);

function entries(files: Record<string, string>): Record<string, LazyEntry> {
  return Object.fromEntries(
    Object.entries(files).map(([name, file]) => {
      const load = modules[`./${file}`];
      if (!load) throw new Error(`widgets/names.json: ${name} names ${file}, which is no widgets/*/*Widget.tsx or *Field.tsx`);
      return [name, lazyComponent(load)];
    }),
  );
}

const widgetEntries: Record<string, LazyEntry> = entries(names.widgets);
const fieldEntries: Record<string, LazyEntry> = entries(names.fields);

const components = (entries: Record<string, LazyEntry>) => Object.fromEntries(Object.entries(entries).map(([name, entry]) => [name, entry.Component]));

export const widgets: Record<string, ComponentType<AnyProps>> = components(widgetEntries);
export const fields: Record<string, ComponentType<AnyProps>> = components(fieldEntries);

/** The registered names a uiSchema gives (`ui:widget`, `ui:field`, at any depth), with their modules. */
function namedIn(uiSchema: unknown): { entry: LazyEntry; file: string }[] {
  const found: { entry: LazyEntry; file: string }[] = [];
  const walk = (node: unknown) => {
    if (!node || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node)) {
      if (key === 'ui:widget' && typeof value === 'string' && Object.hasOwn(widgetEntries, value)) found.push({ entry: widgetEntries[value], file: names.widgets[value as keyof typeof names.widgets] });
      else if (key === 'ui:field' && typeof value === 'string' && Object.hasOwn(fieldEntries, value)) found.push({ entry: fieldEntries[value], file: names.fields[value as keyof typeof names.fields] });
      else walk(value);
    }
  };
  walk(uiSchema);
  return found;
}

/**
 * Starts downloading the widgets and fields a step's uiSchema names (`ui:widget`, `ui:field`, at
 * any depth), so that they arrive together with the step's data instead of after its first render.
 * Names that are not registered here are left to rjsf. Resolves when all have arrived. With `lists`,
 * each module's `prefetch` asks for the lists it draws with as soon as the module is there (not waited
 * for: the step renders without them, and the widget takes the answer once it mounts).
 */
export function preloadStepComponents(uiSchema: unknown, lists?: StepLists): Promise<unknown> {
  return Promise.all(
    namedIn(uiSchema).map(({ entry }) =>
      entry.preload().then((module) => {
        if (lists && module.prefetch) module.prefetch(lists).catch(() => undefined);
        return module;
      }),
    ),
  );
}

/**
 * The source files (`widgets/…`, as the build's manifest names them) of the widgets and fields a
 * uiSchema names: a step's page preloads their chunks with the app's (scripts/prerender.ts).
 */
export function stepComponentFiles(uiSchema: unknown): string[] {
  return [...new Set(namedIn(uiSchema).map(({ file }) => `widgets/${file}`))];
}
