import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import type { i18n as I18n } from 'i18next';
import ro from '../../../locales/ro/staff.json';
import en from '../../../locales/en/staff.json';

/**
 * The staff pages' copy: the `staff` namespace (locales/{ro,en}/staff.json), added to the app's
 * i18next instance by the staff chunk itself, so the applicant's and guest pages ship none of it.
 */
export const STAFF_NS = 'staff';

export function addStaffBundles(instance: I18n): void {
  if (!instance.hasResourceBundle('ro', STAFF_NS)) instance.addResourceBundle('ro', STAFF_NS, ro, true, true);
  if (!instance.hasResourceBundle('en', STAFF_NS)) instance.addResourceBundle('en', STAFF_NS, en, true, true);
}

export type StaffT = (key: string, options?: Record<string, unknown>) => string;

/** `t` of the staff namespace (`common:` keys work with their prefix); re-renders on a language change. */
export function useStaffT(): StaffT {
  const { i18n } = useTranslation();
  addStaffBundles(i18n);
  const { t } = useTranslation([STAFF_NS, 'common']);
  return useCallback<StaffT>((key, options) => String(t(key, options)), [t]);
}
