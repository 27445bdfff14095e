/**
 * The applicant's language (issue 18): Romanian (the spec's copy, the default) or English, chosen
 * with the switch of the guest pages and the flow header (src/shared/components/LanguageSwitch.tsx).
 * Kept in localStorage (`language`) so it survives a reload and a sign-in; the API client sends it as
 * `Accept-Language`, so the server's messages and the mails follow it (server/messages/). No i18next
 * here: the guest pages (src/guest/i18n.ts) use this module too.
 */
export const LANGUAGES = ['ro', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'ro';
export const LANGUAGE_KEY = 'language';

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/** The chosen language; Romanian when none was chosen (or storage is off, or outside a browser). */
export function storedLanguage(): Language {
  try {
    const value = typeof window === 'undefined' ? null : window.localStorage.getItem(LANGUAGE_KEY);
    return isLanguage(value) ? value : DEFAULT_LANGUAGE;
  } catch {
    return DEFAULT_LANGUAGE;
  }
}

export function storeLanguage(language: Language): void {
  try {
    window.localStorage.setItem(LANGUAGE_KEY, language);
  } catch {
    // storage disabled (privacy mode): the choice lasts for this page only
  }
}

/** The switch's label: the other language, in its own name. */
export function otherLanguage(language: Language): { language: Language; label: string } {
  return language === 'en' ? { language: 'ro', label: 'Română' } : { language: 'en', label: 'English' };
}
