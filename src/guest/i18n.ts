import { useMemo } from 'react';
import common from '../../locales/ro/common.json';
import auth from '../../locales/ro/auth.json';
import register from '../../locales/ro/register.json';
import { createTranslate, type Resources } from './translate';

/**
 * What the guest build (vite.guest.config.ts) gives for `react-i18next`: the guest pages reach it only
 * through `useT` (src/shared/useT.ts), which calls `useTranslation([ns, 'common'])`. Romanian only, as
 * the guest pages are served (the English bundles are loaded on demand by the app, never here).
 */
const resources: Resources = { common, auth, register };

export function useTranslation(ns: string | readonly string[] = 'common') {
  const first = typeof ns === 'string' ? ns : (ns[0] ?? 'common');
  const t = useMemo(() => createTranslate(resources, first), [first]);
  return { t, i18n: { language: 'ro', resolvedLanguage: 'ro' }, ready: true };
}
