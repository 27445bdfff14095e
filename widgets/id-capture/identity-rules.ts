import type { IdentityContext, IdentityError, Profile } from '../types';

/** The locale key part of each upload context (`steps:identity.contexts.front`). */
export const CONTEXT_KEYS: Record<IdentityContext, string> = { 'document-front': 'front', 'document-back': 'back', face: 'face' };

/** Spec 000 §9: status polling every 5 s, photo polling (phone hand-over) every 3 s, reload 3 s after a lost session. */
export const STATUS_POLL_MS = 5000;
export const PHOTO_POLL_MS = 3000;
export const SESSION_LOST_RELOAD_MS = 3000;

/** Spec 000 §4.4: 1 pending (collecting uploads), 2 approved, 3 rejected, 4 submitted. */
export const STATUS = { pending: 1, approved: 2, rejected: 3, submitted: 4 } as const;

export type Phase = 'loading' | 'collecting' | 'waiting' | 'approved' | 'rejected';

/** Spec 000 §5: first name, last name, place of birth, county, city, street and number are present. */
export function profileComplete(profile: Profile): boolean {
  return Boolean(
    profile.first_name && profile.last_name && profile.place_of_birth && profile.county_id && profile.city_id && profile.street && profile.number,
  );
}

/** A 404 VERIFF_SESSION_NOT_FOUND: the session was deleted elsewhere. */
export function isSessionLost(error: unknown): boolean {
  const e = error as IdentityError | null;
  return e?.status === 404 && e.code === 'VERIFF_SESSION_NOT_FOUND';
}

/** The home address in one line, or null while street, number or city is missing. */
export function formatAddress(profile: Profile): string | null {
  if (!profile.street || !profile.number || !profile.city) return null;
  return [profile.address_1, profile.address_2].filter(Boolean).join(', ') || `${profile.street} ${profile.number}, ${profile.city}`;
}

/**
 * The home address as the identity card writes it (`profile.document_address`, issue 31), when the
 * server read one; shown while the address is incomplete, next to the form it prefilled.
 */
export function documentAddress(profile: Profile): string | null {
  const text = profile.document_address;
  return typeof text === 'string' && text.trim() ? text.trim() : null;
}
