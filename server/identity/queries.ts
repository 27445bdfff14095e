import { and, asc, desc, eq, isNull } from 'drizzle-orm';
import type { Db } from '../db';
import { identitySessions, identityUploads } from '../db/schema';
import { fileUrl } from '../files/files';
import { IDENTITY_CONTEXTS, IdentityStatus, type IdentityContext } from './types';

export type IdentitySessionRow = typeof identitySessions.$inferSelect;
export type IdentityUploadRow = typeof identityUploads.$inferSelect;

/** The user's last session that was not deleted, or null. */
export async function lastSession(db: Db, userId: number): Promise<IdentitySessionRow | null> {
  const [row] = await db
    .select()
    .from(identitySessions)
    .where(and(eq(identitySessions.userId, userId), isNull(identitySessions.deletedAt)))
    .orderBy(desc(identitySessions.createdAt), desc(identitySessions.id))
    .limit(1);
  return row ?? null;
}

export async function uploadsOf(db: Db, session: IdentitySessionRow): Promise<IdentityUploadRow[]> {
  return db.select().from(identityUploads).where(eq(identityUploads.identitySessionId, session.id)).orderBy(asc(identityUploads.id));
}

export function hasAllUploads(uploads: IdentityUploadRow[]): boolean {
  return IDENTITY_CONTEXTS.every((c) => uploads.some((u) => u.context === c));
}

type MediaRef = { id: number; url: string } | null;

/** The identity part of a request's `media` (spec 000 §3 "Company request", 001 §3). */
export async function identityMedia(db: Db, userId: number) {
  const session = await lastSession(db, userId);
  return identityMediaOf(session ? await uploadsOf(db, session) : []);
}

/** The identity part of `media` from the last session's uploads (as `identityMedia` reads them). */
export function identityMediaOf(uploads: Pick<IdentityUploadRow, 'context' | 'fileId'>[]) {
  const ref = (context: IdentityContext): MediaRef => {
    const upload = uploads.find((u) => u.context === context);
    return upload ? { id: upload.fileId, url: fileUrl(upload.fileId) } : null;
  };
  return {
    identity_document: null,
    veriff_document_front: ref('document-front'),
    veriff_document_back: ref('document-back'),
    selfie_document: ref('face'),
  };
}


/** Why the identity step cannot be confirmed (its field error on `verified`). */
export const STEP_MESSAGES = {
  notSubmitted: 'Încarcă cele trei fotografii și trimite-le pentru verificare.',
  waiting: 'Verificarea identității este în curs. Te rugăm să aștepți rezultatul.',
  rejected: 'Verificarea a fost respinsă. Șterge sesiunea și reîncepe procesul.',
  missingAddress: 'Avem nevoie de adresa ta de domiciliu',
} as const;

/** Profile fields that make profile and address complete (spec 000 §5, 001 §5). */
export const PROFILE_REQUIRED = ['first_name', 'last_name', 'place_of_birth', 'county_id', 'city_id', 'street', 'number'] as const;

export function profileComplete(profile: Record<string, unknown>): boolean {
  return PROFILE_REQUIRED.every((key) => {
    const value = profile[key];
    return typeof value === 'number' ? value > 0 : typeof value === 'string' && value.trim() !== '';
  });
}

/**
 * Why the identity step cannot be confirmed yet, or null when it can: the last session is approved,
 * or rejected with a complete profile and all three photos (spec 000 §4.4), and the profile and
 * address are complete.
 */
export async function identityStepProblem(db: Db, userId: number, profile: Record<string, unknown>): Promise<string | null> {
  const session = await lastSession(db, userId);
  if (!session || session.status === IdentityStatus.created) return STEP_MESSAGES.notSubmitted;
  if (session.status === IdentityStatus.submitted) return STEP_MESSAGES.waiting;
  if (session.status === IdentityStatus.rejected && !hasAllUploads(await uploadsOf(db, session))) return STEP_MESSAGES.rejected;
  if (session.status !== IdentityStatus.approved && session.status !== IdentityStatus.rejected) return STEP_MESSAGES.notSubmitted;
  if (!profileComplete(profile)) return STEP_MESSAGES.missingAddress;
  return null;
}
