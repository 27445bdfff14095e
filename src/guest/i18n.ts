import { useMemo, useSyncExternalStore } from 'react';
import common from '../../locales/ro/common.json';
import auth from '../../locales/ro/auth.json';
import register from '../../locales/ro/register.json';
import { DEFAULT_LANGUAGE, storedLanguage, type Language } from '@/shared/language';
import { createTranslate, type Resources } from './translate';

/**
 * What the guest build (vite.guest.config.ts) gives for `react-i18next`: the guest pages reach it
 * through `useT` (src/shared/useT.ts), which calls `useTranslation([ns, 'common'])`, and the language
 * switch (`i18n.changeLanguage`). Romanian ships with the page, as it is prerendered; English
 * (locales/en) is a chunk of its own, loaded only once chosen: by the switch, or at start when the
 * stored choice (src/shared/language.ts) is English; the page then shows Romanian until it is in.
 */
const bundles: Partial<Record<Language, Resources>> = { ro: { common, auth, register } };
const loaders: Record<Exclude<Language, 'ro'>, () => Promise<Resources>> = {
  en: async () => {
    const [c, a, r] = await Promise.all([
      import('../../locales/en/common.json'),
      import('../../locales/en/auth.json'),
      import('../../locales/en/register.json'),
    ]);
    return { common: c.default, auth: a.default, register: r.default };
  },
};

let language: Language = DEFAULT_LANGUAGE;
const listeners = new Set<() => void>();

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

async function changeLanguage(next: Language): Promise<void> {
  if (next !== 'ro' && !bundles[next]) bundles[next] = await loaders[next]();
  language = next;
  document.documentElement.lang = next;
  for (const listener of listeners) listener();
}

export const i18n = {
  get language(): Language {
    return language;
  },
  get resolvedLanguage(): Language {
    return language;
  },
  changeLanguage,
};

if (typeof window !== 'undefined' && storedLanguage() !== DEFAULT_LANGUAGE) {
  void changeLanguage(storedLanguage()).catch(() => undefined);
}

export function useTranslation(ns: string | readonly string[] = 'common') {
  const first = typeof ns === 'string' ? ns : (ns[0] ?? 'common');
  const current = useSyncExternalStore(subscribe, () => language, () => DEFAULT_LANGUAGE);
  const t = useMemo(() => createTranslate(bundles[current] ?? bundles.ro!, first), [first, current]);
  return { t, i18n, ready: true };
}
