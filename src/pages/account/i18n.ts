import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import type { i18n as I18n } from 'i18next';
import { useConfig } from '@/shared/api/hooks';
import ro from '../../../locales/ro/privacy.json';
import en from '../../../locales/en/privacy.json';

/**
 * The "Datele tale" page's copy, namespace `privacy` (locales/<lng>/privacy.json): added to i18next by
 * the page's own chunk (as the staff pages add theirs), so the other pages ship none of it.
 */
export const PRIVACY_NS = 'privacy';

function ensureBundles(i18n: I18n): void {
  if (!i18n.hasResourceBundle('ro', PRIVACY_NS)) i18n.addResourceBundle('ro', PRIVACY_NS, ro, true, true);
  if (!i18n.hasResourceBundle('en', PRIVACY_NS)) i18n.addResourceBundle('en', PRIVACY_NS, en, true, true);
}

export type PrivacyT = (key: string, options?: Record<string, unknown>) => string;

/** `t` of the privacy namespace with `{{product}}` filled in; `common:` keys with their prefix. */
export function usePrivacyT(): { t: PrivacyT; language: string } {
  const { i18n } = useTranslation();
  ensureBundles(i18n);
  const { t } = useTranslation([PRIVACY_NS, 'common']);
  const product = useConfig().config.product_name;
  const fn = useCallback<PrivacyT>((key, options) => String(t(key, { product, ...options })), [t, product]);
  return { t: fn, language: i18n.resolvedLanguage ?? 'ro' };
}

/** Romanian's plural forms (one, few, other: "o zi", "3 zile", "30 de zile"); English's two fit in them. */
const ROMANIAN_PLURAL = new Intl.PluralRules('ro');

/** A quantity of `unit` (`days`, `years`, `times`) in words: "180 de zile", "10 ani", "de 3 ori". */
export function quantity(t: PrivacyT, unit: 'days' | 'years' | 'times', n: number): string {
  return t(`units.${unit}.${ROMANIAN_PLURAL.select(n)}`, { n });
}

const locale = (language: string) => (language === 'en' ? 'en-GB' : 'ro-RO');

/** An instant (ISO 8601) as a day in Romania's time: "25 noiembrie 2026" (ro) / "25 November 2026" (en). */
export function formatDay(value: string, language: string): string {
  const at = new Date(value);
  if (Number.isNaN(at.getTime())) return value;
  return new Intl.DateTimeFormat(locale(language), { dateStyle: 'long', timeZone: 'Europe/Bucharest' }).format(at);
}

/** A calendar day (`YYYY-MM-DD`, no time of day) in words: "31 decembrie 2036". */
export function formatCalendarDay(value: string, language: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return value;
  const at = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  return new Intl.DateTimeFormat(locale(language), { dateStyle: 'long', timeZone: 'UTC' }).format(at);
}
