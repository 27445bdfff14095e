import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import type { i18n as I18n } from 'i18next';
import ro from '../../../../locales/ro/console.json';
import en from '../../../../locales/en/console.json';

/**
 * The console's copy, namespace `console` (locales/<lng>/console.json): added to i18next by the
 * console's own chunk, so the applicant's pages ship none of it.
 */
export const CONSOLE_NS = 'console';

function ensureBundles(i18n: I18n): void {
  if (!i18n.hasResourceBundle('ro', CONSOLE_NS)) i18n.addResourceBundle('ro', CONSOLE_NS, ro, true, true);
  if (!i18n.hasResourceBundle('en', CONSOLE_NS)) i18n.addResourceBundle('en', CONSOLE_NS, en, true, true);
}

export type ConsoleT = (key: string, options?: Record<string, unknown>) => string;

/** `t` of the console namespace; other namespaces with the `ns:` prefix (`pages:status.items.rejected.title`). */
export function useConsoleT(): { t: ConsoleT; language: string } {
  const { i18n } = useTranslation();
  ensureBundles(i18n);
  const { t } = useTranslation([CONSOLE_NS, 'pages', 'common']);
  const fn = useCallback<ConsoleT>((key, options) => String(t(key, options)), [t]);
  return { t: fn, language: i18n.resolvedLanguage ?? 'ro' };
}

/** "25.11.2026, 14:03" in Romania's time (ro) / "25/11/2026, 14:03" (en). */
export function formatDateTime(value: string | null | undefined, language: string): string {
  if (!value) return '';
  const at = new Date(value);
  if (Number.isNaN(at.getTime())) return value;
  return new Intl.DateTimeFormat(language === 'en' ? 'en-GB' : 'ro-RO', { dateStyle: 'short', timeStyle: 'short', timeZone: 'Europe/Bucharest' }).format(at);
}

/** A flow's name for operators (`flows.<id>`), its id when the console has none. */
export function flowLabel(t: ConsoleT, flow: string): string {
  return t(`flows.${flow}`, { defaultValue: flow });
}

/** A dossier status in words (`statuses.<status>`), the status itself when the console has none. */
export function statusLabel(t: ConsoleT, status: string): string {
  return t(`statuses.${status}`, { defaultValue: status });
}
