import { and, eq, inArray } from 'drizzle-orm';
import type { SessionUser } from '../../src/core/session';
import type { RegistrationTypeValue } from '../../src/core/registration';
import type { Db } from '../db';
import { userMeta } from '../db/schema';
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
 * finalized a dossier, once an existing PFA has signed (or the account was flagged for it), and whether the new-PFA request is paid
 * (login then opens its status page).
 */
export async function onboardingState(db: Db, user: UserRow): Promise<{ dashboardRedirect: boolean; requestingCompanyPaid: boolean }> {
  const requests = await requestStates(db, user.id);
  // The existing PFA's last step is the signature: once signed, the dashboard takes over (spec 001 §4 "Signature").
  const signedExisting = (r: (typeof requests)[number]) => r.type === 1 && Boolean(r.formData.signed_at);
  return {
    dashboardRedirect: user.dashboardRedirect || requests.some((r) => r.status === 'finalized' || signedExisting(r)),
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
