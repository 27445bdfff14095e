import { useCallback, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useConfig } from './api/hooks';
import type { Namespace } from './i18n';

export type T = (key: string, options?: Record<string, unknown>) => string;

/**
 * `t` of a namespace with `{{product}}` filled in from the public config (default "Ghișeu").
 * Keys of other namespaces work with the `ns:` prefix (`common:errors.generic`).
 */
export function useT(ns: Namespace = 'common'): T {
  const { t } = useTranslation([ns, 'common']);
  const { config } = useConfig();
  const product = config.product_name;
  return useCallback<T>((key, options) => String(t(key, { product, ...options })), [t, product]);
}

/** Sets `document.title` to "<title> · <product>". */
export function usePageTitle(title: string): void {
  const t = useT('common');
  const full = t('pageTitle', { title });
  useEffect(() => {
    document.title = full;
  }, [full]);
}

/** Romanian's plural forms: one (1), few (0, 2–19, 101–119, …), other (20, 21, …: "de luni"); English's two fit in them. */
const ROMANIAN_PLURAL = new Intl.PluralRules('ro');

/** "în prima lună", "în primele 3 luni", "în primele 24 de luni" (or the English: "for the first 3 months"). */
export function firstMonths(t: T, n: number): string {
  return t(`common:firstMonths.${ROMANIAN_PLURAL.select(n)}`, { n });
}
