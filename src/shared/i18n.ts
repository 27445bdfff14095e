import i18next, { type BackendModule, type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import common from '../../locales/ro/common.json';
import auth from '../../locales/ro/auth.json';
import register from '../../locales/ro/register.json';
import pages from '../../locales/ro/pages.json';
import { DEFAULT_LANGUAGE, LANGUAGES, type Language } from './language';

export { DEFAULT_LANGUAGE, LANGUAGES, type Language } from './language';

/** Namespaces of the app shell and the pages outside the wizards (locales/<lng>/<ns>.json). */
export const NAMESPACES = ['common', 'auth', 'register', 'pages'] as const;
export type Namespace = (typeof NAMESPACES)[number];

type Bundle = () => Promise<{ default: object }>;

/**
 * The bundles loaded on demand, each its own chunk: English (when chosen), and the wizard's `steps`
 * namespace of either language (loaded by the flow pages).
 */
const BUNDLES: Record<string, Bundle> = {
  'en/common': () => import('../../locales/en/common.json'),
  'en/auth': () => import('../../locales/en/auth.json'),
  'en/register': () => import('../../locales/en/register.json'),
  'en/pages': () => import('../../locales/en/pages.json'),
  'en/steps': () => import('../../locales/en/steps.json'),
  'ro/steps': () => import('../../locales/ro/steps.json'),
};

/** An i18next backend over BUNDLES: `changeLanguage('en')` loads every namespace in use (the wizard's too) before it switches. */
const lazyBundles: BackendModule = {
  type: 'backend',
  init() {},
  read(language, namespace, callback) {
    const load = BUNDLES[`${language}/${namespace}`];
    if (!load) {
      callback(null, {});
      return;
    }
    load().then(
      (bundle) => callback(null, bundle.default as Record<string, unknown>),
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), false),
    );
  },
};

/**
 * One i18next instance for the app. Romanian (the spec's exact copy) ships in the entry chunk;
 * English and the wizard's `steps` namespace are loaded on demand so the login page stays small.
 * `lng` other than Romanian starts a switch (the Romanian copy shows until its bundles are in).
 */
export function createI18n(lng: Language = DEFAULT_LANGUAGE): I18n {
  const instance = i18next.createInstance();
  void instance
    .use(lazyBundles)
    .use(initReactI18next)
    .init({
      lng: DEFAULT_LANGUAGE,
      fallbackLng: DEFAULT_LANGUAGE,
      supportedLngs: [...LANGUAGES],
      ns: [...NAMESPACES],
      defaultNS: 'common',
      resources: { ro: { common, auth, register, pages } },
      // The bundled Romanian is used as is; the backend brings the rest.
      partialBundledLanguages: true,
      // Resources are bundled: initialise synchronously so the first render has the copy.
      initAsync: false,
      interpolation: { escapeValue: false },
      returnNull: false,
    });
  instance.on('languageChanged', (language) => {
    if (typeof document !== 'undefined') document.documentElement.lang = language;
  });
  if (lng !== DEFAULT_LANGUAGE) void setLanguage(instance, lng);
  return instance;
}

/** Switches the language once its bundles (and those of every namespace in use) are loaded. */
export async function setLanguage(instance: I18n, lng: Language): Promise<void> {
  await instance.changeLanguage(lng);
}

/**
 * Adds the wizard's `steps` namespace (locales/<lng>/steps.json) for the current language; the
 * flow chunk calls it before the step runner renders, so the login page ships no step copy. Once
 * loaded, a language switch loads it in the new language too.
 */
export async function loadStepsNamespace(instance: I18n): Promise<void> {
  const lng = (instance.resolvedLanguage ?? DEFAULT_LANGUAGE) as Language;
  if (instance.hasResourceBundle(lng, 'steps')) return;
  await instance.loadNamespaces('steps');
}
