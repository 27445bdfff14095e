import { and, eq, inArray } from 'drizzle-orm';
import type { SessionUser } from '../../src/core/session';
import type { RegistrationTypeValue } from '../../src/core/registration';
import type { Db } from '../db';
import { userMeta } from '../db/schema';
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

/** The user object of login, register and auto-login answers. */
export async function sessionUser(db: Db, user: UserRow, accessToken: string, productSlug: string): Promise<SessionUser> {
  const source = await db
    .select({ meta_key: userMeta.metaKey, meta_value: userMeta.metaValue })
    .from(userMeta)
    .where(and(eq(userMeta.userId, user.id), inArray(userMeta.metaKey, userSourceKeys(productSlug))))
    .orderBy(userMeta.id);
  return {
    id: user.id,
    access_token: accessToken,
    dashboard_redirect: user.dashboardRedirect,
    email: user.email,
    phone: user.phone,
    registration_type: user.registrationType as RegistrationTypeValue,
    stop_flow: user.stopFlow,
    user_source: source,
  };
}
