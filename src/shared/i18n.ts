import i18next, { type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import common from '../../locales/ro/common.json';
import auth from '../../locales/ro/auth.json';
import register from '../../locales/ro/register.json';
import pages from '../../locales/ro/pages.json';

/** Namespaces of the app shell and the pages outside the wizards (locales/<lng>/<ns>.json). */
export const NAMESPACES = ['common', 'auth', 'register', 'pages'] as const;
export type Namespace = (typeof NAMESPACES)[number];
export const DEFAULT_LANGUAGE = 'ro';
export const LANGUAGES = ['ro', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];

/**
 * One i18next instance for the app. Romanian (the spec's exact copy) ships in the entry chunk;
 * English and the wizard's `steps` namespace are loaded on demand so the login page stays small.
 */
export function createI18n(lng: Language = DEFAULT_LANGUAGE): I18n {
  const instance = i18next.createInstance();
  void instance.use(initReactI18next).init({
    lng: DEFAULT_LANGUAGE,
    fallbackLng: DEFAULT_LANGUAGE,
    supportedLngs: [...LANGUAGES],
    ns: [...NAMESPACES],
    defaultNS: 'common',
    resources: { ro: { common, auth, register, pages } },
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

const loaders: Record<Exclude<Language, 'ro'>, () => Promise<Record<Namespace, object>>> = {
  en: async () => {
    const [c, a, r, p] = await Promise.all([
      import('../../locales/en/common.json'),
      import('../../locales/en/auth.json'),
      import('../../locales/en/register.json'),
      import('../../locales/en/pages.json'),
    ]);
    return { common: c.default, auth: a.default, register: r.default, pages: p.default };
  },
};

/** Switches the language, loading its bundles first. */
export async function setLanguage(instance: I18n, lng: Language): Promise<void> {
  if (lng !== 'ro' && !instance.hasResourceBundle(lng, 'common')) {
    const bundles = await loaders[lng]();
    for (const ns of NAMESPACES) instance.addResourceBundle(lng, ns, bundles[ns], true, true);
  }
  await instance.changeLanguage(lng);
}

/**
 * Adds the wizard's `steps` namespace (locales/<lng>/steps.json) for the current language; the
 * flow chunk calls it before the step runner renders, so the login page ships no step copy.
 */
export async function loadStepsNamespace(instance: I18n): Promise<void> {
  const lng = (instance.resolvedLanguage ?? DEFAULT_LANGUAGE) as Language;
  if (instance.hasResourceBundle(lng, 'steps')) return;
  const bundle = lng === 'en' ? await import('../../locales/en/steps.json') : await import('../../locales/ro/steps.json');
  instance.addResourceBundle(lng, 'steps', bundle.default, true, true);
}
