import { and, desc, eq, inArray } from 'drizzle-orm';
import type { SessionUser } from '../../src/core/session';
import type { RegistrationTypeValue } from '../../src/core/registration';
import type { Db } from '../db';
import { userMeta } from '../db/schema';
import { DEFAULT_LANGUAGE, isLanguage, type Language } from '../messages';
import { requestStates } from '../registration/store';
import type { UserRow } from './tokens';

/** The user-source keys returned at login (spec 000 §3), for product slug `slug`. */
export function userSourceKeys(slug: string): string[] {
  return [
    'first_source',
    'last_source',
    'campaigns_list',
    'source_path',
    'userSource_firstTimestamp',
    'create_account_source',
    'userSource_lastTimestamp',
  ].map((k) => `${slug}_${k}`);
}

export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

/**
 * Where the user's onboarding stands (spec 000 §4.1, §4.5): the dashboard once an operator has
 * finalized a dossier, once a flow's last step that leaves for the dashboard was submitted (the existing
 * PFA's signature), or the account was flagged for it, and whether the new-PFA request is paid
 * (login then opens its status page).
 */
export async function onboardingState(db: Db, user: UserRow): Promise<{ dashboardRedirect: boolean; requestingCompanyPaid: boolean }> {
  const requests = await requestStates(db, user.id);
  // A flow whose last step leaves for the dashboard (the existing PFA's signature, spec 001 §4) is done
  // once that step was submitted: `flow_completed_at`, written by the step route from the flow file.
  return {
    dashboardRedirect: user.dashboardRedirect || requests.some((r) => r.status === 'finalized' || Boolean(r.formData.flow_completed_at)),
    requestingCompanyPaid: requests.some((r) => r.type === 2 && r.paid),
  };
}

/** The user object of login, register and auto-login answers. */
export async function sessionUser(db: Db, user: UserRow, accessToken: string, productSlug: string): Promise<SessionUser> {
  const source = await db
    .select({ meta_key: userMeta.metaKey, meta_value: userMeta.metaValue })
    .from(userMeta)
    .where(and(eq(userMeta.userId, user.id), inArray(userMeta.metaKey, userSourceKeys(productSlug))))
    .orderBy(userMeta.id);
  const state = await onboardingState(db, user);
  return {
    id: user.id,
    access_token: accessToken,
    dashboard_redirect: state.dashboardRedirect,
    requesting_company_paid: state.requestingCompanyPaid,
    email: user.email,
    phone: user.phone,
    registration_type: user.registrationType as RegistrationTypeValue,
    stop_flow: user.stopFlow,
    user_source: source,
  };
}

/** user_meta key of the applicant's language (issue 18): `ro` or `en`, the last one chosen. */
export const LANGUAGE_META_KEY = 'language';

/** The language the user chose (the mails sent later use it); Romanian when none was recorded. */
export async function userLanguage(db: Db, userId: number): Promise<Language> {
  const [row] = await db
    .select({ value: userMeta.metaValue })
    .from(userMeta)
    .where(and(eq(userMeta.userId, userId), eq(userMeta.metaKey, LANGUAGE_META_KEY)))
    .orderBy(desc(userMeta.id))
    .limit(1);
  return isLanguage(row?.value) ? row.value : DEFAULT_LANGUAGE;
}

/** Records the user's language (one row per user: the previous one is replaced); nothing is written when it is the same. */
export async function saveUserLanguage(db: Db, userId: number, language: Language): Promise<void> {
  const [row] = await db
    .select({ value: userMeta.metaValue })
    .from(userMeta)
    .where(and(eq(userMeta.userId, userId), eq(userMeta.metaKey, LANGUAGE_META_KEY)))
    .orderBy(desc(userMeta.id))
    .limit(1);
  if (row?.value === language) return;
  await db.transaction(async (tx) => {
    await tx.delete(userMeta).where(and(eq(userMeta.userId, userId), eq(userMeta.metaKey, LANGUAGE_META_KEY)));
    await tx.insert(userMeta).values({ userId, metaKey: LANGUAGE_META_KEY, metaValue: language });
  });
}
