import { randomBytes } from 'node:crypto';
import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { AppConfig } from '../config';
import type { Db } from '../db';
import { identitySessions, identityUploads, users } from '../db/schema';
import { cleanUpload, deleteFiles, fileUrl, saveFile } from '../files/files';
import { detectImageType } from '../lib/image-type';
import { formatAddressLine1, formatAddressLine2, hasHomeAddress } from '../lib/places';
import { FieldValidationError, HttpError } from '../lib/http-errors';
import type { UploadedFile } from '../lib/multipart';
import { mergeProfile, openRequest } from '../registration/store';
import { ADDRESS_PART_KEYS, matchIdAddress } from './address-match';
import { hasAllUploads, lastSession, uploadsOf, type IdentitySessionRow } from './queries';
import { SimulatorProvider } from './simulator';
import {
  CONTEXT_NAMES,
  IDENTITY_CONTEXTS,
  IdentityProviderError,
  IdentityStatus,
  type IdentityContext,
  type IdentityDecision,
  type IdentityPerson,
  type IdentityProvider,
} from './types';
import { VeriffClient } from './veriff';

export type { IdentitySessionRow, IdentityUploadRow } from './queries';

export const SESSION_NOT_FOUND_CODE = 'VERIFF_SESSION_NOT_FOUND';

/** Romanian copy of the identity calls (spec 000 §8 where it has one). */
export const IDENTITY_MESSAGES = {
  notFound: 'Sesiunea de verificare nu a fost găsită.',
  createFailed: 'Nu s-a putut iniția sesiunea de verificare. Te rugăm să încerci din nou.',
  alreadyVerified: 'Identitatea ta a fost deja verificată.',
  uploadFailed: (context: IdentityContext) => `Încărcarea pentru ${CONTEXT_NAMES[context]} a eșuat. Te rugăm să încerci din nou.`,
  submitFailed: 'Trimiterea pentru verificare a eșuat. Te rugăm să încerci din nou.',
  alreadySubmitted: 'Fotografiile au fost deja trimise pentru verificare. Pentru fotografii noi, șterge sesiunea și reîncepe procesul.',
  decided: 'Verificarea acestei sesiuni s-a încheiat. Pentru fotografii noi, șterge sesiunea și reîncepe procesul.',
  missingUploads: 'Încarcă toate cele trei fotografii înainte de a trimite.',
  uploadFirst: (context: IdentityContext) => `Încarcă mai întâi ${CONTEXT_NAMES[context]}.`,
  wrongType: 'Fotografia trebuie să fie JPEG, PNG, HEIC/HEIF sau WebP.',
  tooLarge: (bytes: number) =>
    `Fotografia poate avea cel mult ${bytes >= 1024 * 1024 ? `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`}.`,
  tooMany: 'Trimite o singură fotografie odată.',
  deleted: 'Sesiunea de verificare a fost ștearsă.',
} as const;

export const sessionNotFound = () => new HttpError(404, IDENTITY_MESSAGES.notFound, { code: SESSION_NOT_FOUND_CODE });

/** The provider named by the configuration: Veriff when VERIFF_API_KEY is set, else the simulator. */
export function createIdentityProvider(config: AppConfig, db: Db): IdentityProvider {
  if (config.veriffApiKey) {
    if (!config.veriffSharedSecret) throw new Error('VERIFF_SHARED_SECRET is required when VERIFF_API_KEY is set');
    return new VeriffClient({ apiKey: config.veriffApiKey, sharedSecret: config.veriffSharedSecret, baseUrl: config.veriffBaseUrl });
  }
  return new SimulatorProvider(db, config.idvSimulatorDelayMs);
}

/** The provider that holds a session (a simulator session stays with the simulator after a switch). */
function providerFor(app: FastifyInstance, session: IdentitySessionRow): IdentityProvider {
  if (app.identity.name === session.provider) return app.identity;
  if (session.provider === 'simulator') return new SimulatorProvider(app.db, app.config.idvSimulatorDelayMs);
  throw new IdentityProviderError(`identity provider ${session.provider} is not configured`);
}

function logProviderError(app: FastifyInstance, error: unknown, what: string): void {
  if (error instanceof IdentityProviderError) app.log.warn({ err: error }, `identity provider: ${what} failed`);
  else app.log.error({ err: error }, `identity provider: ${what} failed`);
}

/** A session of this user by the provider's id (and custom_id when given); anything else is "not found". */
export async function ownedSession(app: FastifyInstance, userId: number, sessionId: string, customId?: string): Promise<IdentitySessionRow> {
  const [row] = await app.db
    .select()
    .from(identitySessions)
    .where(and(eq(identitySessions.sessionId, sessionId), eq(identitySessions.userId, userId), isNull(identitySessions.deletedAt)));
  if (!row || (customId !== undefined && row.customId !== customId)) throw sessionNotFound();
  return row;
}

/**
 * The user's open session (status 1 or 4), or a new one. A double click cannot make two: the
 * database allows one open session per user and the loser of a race answers with the winner's.
 */
export async function createSession(app: FastifyInstance, userId: number): Promise<IdentitySessionRow> {
  const last = await lastSession(app.db, userId);
  if (last && (last.status === IdentityStatus.created || last.status === IdentityStatus.submitted)) return last;
  if (last?.status === IdentityStatus.approved) throw new HttpError(409, IDENTITY_MESSAGES.alreadyVerified);

  const customId = randomBytes(16).toString('hex');
  let created: { sessionId: string };
  try {
    created = await app.identity.createSession({ vendorData: customId });
  } catch (error) {
    logProviderError(app, error, 'create session');
    throw new HttpError(502, IDENTITY_MESSAGES.createFailed);
  }
  const [row] = await app.db
    .insert(identitySessions)
    .values({ userId, provider: app.identity.name, sessionId: created.sessionId, customId })
    .onConflictDoNothing()
    .returning();
  if (row) return row;
  await app.identity.deleteSession(created.sessionId).catch((error: unknown) => logProviderError(app, error, 'delete session'));
  const winner = await lastSession(app.db, userId);
  if (winner && (winner.status === IdentityStatus.created || winner.status === IdentityStatus.submitted)) return winner;
  throw new HttpError(502, IDENTITY_MESSAGES.createFailed);
}

export interface UploadResult {
  context: IdentityContext;
  file_id: number;
  preview_url: string;
}

/**
 * Stores one photo of a session: the context must be the next one missing (front, back, selfie)
 * or one already uploaded (a re-upload replaces the old photo, which is deleted); the photo must be
 * JPEG, PNG, WebP or HEIC/HEIF by content. Stored first, then sent to the provider.
 */
export async function uploadImage(
  app: FastifyInstance,
  userId: number,
  input: { sessionId: string; context: IdentityContext; file: UploadedFile },
): Promise<UploadResult> {
  const session = await ownedSession(app, userId, input.sessionId);
  if (session.status !== IdentityStatus.created) {
    throw new HttpError(409, session.status === IdentityStatus.submitted ? IDENTITY_MESSAGES.alreadySubmitted : IDENTITY_MESSAGES.decided);
  }
  const uploads = await uploadsOf(app.db, session);
  const errors: Record<string, string[]> = {};
  const next = IDENTITY_CONTEXTS.find((c) => !uploads.some((u) => u.context === c));
  if (input.context !== next && !uploads.some((u) => u.context === input.context)) {
    errors.context = [IDENTITY_MESSAGES.uploadFirst(next ?? 'document-front')];
  }
  const type = detectImageType(input.file.data);
  if (!type) errors.media_file = [IDENTITY_MESSAGES.wrongType];
  if (Object.keys(errors).length || !type) throw new FieldValidationError(errors);

  // The provider gets the same bytes as the store: without EXIF (GPS).
  const data = await cleanUpload(input.file.data, type.contentType, 'media_file');
  const stored = await saveFile(app, userId, {
    data,
    originalName: input.file.filename || `${input.context}.${type.extension}`,
    contentType: type.contentType,
    clean: true,
  });
  try {
    await providerFor(app, session).uploadMedia(session.sessionId, {
      context: input.context,
      data,
      contentType: type.contentType,
      fileName: stored.originalName,
    });
  } catch (error) {
    logProviderError(app, error, 'upload media');
    await deleteFiles(app, [stored.id]);
    throw new HttpError(502, IDENTITY_MESSAGES.uploadFailed(input.context));
  }
  const where = and(eq(identityUploads.identitySessionId, session.id), eq(identityUploads.context, input.context));
  const previous = await app.db.delete(identityUploads).where(where).returning();
  await app.db
    .insert(identityUploads)
    .values({ identitySessionId: session.id, context: input.context, fileId: stored.id })
    .onConflictDoUpdate({ target: [identityUploads.identitySessionId, identityUploads.context], set: { fileId: stored.id, createdAt: new Date() } });
  await deleteFiles(
    app,
    previous.map((p) => p.fileId).filter((id) => id !== stored.id),
  );
  return { context: input.context, file_id: stored.id, preview_url: fileUrl(stored.id) };
}

/** Sends the session for a decision (status 4). Already submitted: nothing changes. */
export async function submitSession(app: FastifyInstance, userId: number, sessionId: string): Promise<IdentitySessionRow> {
  const session = await ownedSession(app, userId, sessionId);
  if (session.status === IdentityStatus.submitted) return session;
  if (session.status !== IdentityStatus.created) throw new HttpError(409, IDENTITY_MESSAGES.decided);
  if (!hasAllUploads(await uploadsOf(app.db, session))) {
    throw new FieldValidationError({ session_id: [IDENTITY_MESSAGES.missingUploads] });
  }
  try {
    await providerFor(app, session).submit(session.sessionId);
  } catch (error) {
    logProviderError(app, error, 'submit');
    throw new HttpError(502, IDENTITY_MESSAGES.submitFailed);
  }
  const [updated] = await app.db
    .update(identitySessions)
    .set({ status: IdentityStatus.submitted, submittedAt: new Date() })
    .where(and(eq(identitySessions.id, session.id), eq(identitySessions.status, IdentityStatus.created)))
    .returning();
  return updated ?? ownedSession(app, userId, sessionId);
}

/** The session's status; while it waits for a decision (4) the provider is asked for one. */
export async function refreshStatus(app: FastifyInstance, userId: number, sessionId: string, customId: string): Promise<IdentitySessionRow> {
  const session = await ownedSession(app, userId, sessionId, customId);
  if (session.status !== IdentityStatus.submitted) return session;
  let decision: IdentityDecision | null;
  try {
    decision = await providerFor(app, session).decision(session.sessionId);
  } catch (error) {
    // The browser keeps polling: a passing provider failure is no answer yet.
    logProviderError(app, error, 'read decision');
    return session;
  }
  if (!decision) return session;
  return applyDecision(app, session, decision);
}

/**
 * Records a decision once (a session still open: 1 or 4); on approval the person on the document
 * goes into the user's request profile. Returns the session as it now stands.
 */
export async function applyDecision(app: FastifyInstance, session: IdentitySessionRow, decision: IdentityDecision): Promise<IdentitySessionRow> {
  const [updated] = await app.db
    .update(identitySessions)
    .set({
      status: decision.status,
      decidedAt: decision.decidedAt,
      decisionCode: decision.code,
      reasonCode: decision.reasonCode,
      reason: decision.reason,
      person: decision.person as Record<string, unknown> | null,
    })
    .where(
      and(
        eq(identitySessions.id, session.id),
        inArray(identitySessions.status, [IdentityStatus.created, IdentityStatus.submitted]),
        isNull(identitySessions.deletedAt),
      ),
    )
    .returning();
  if (!updated) {
    const [current] = await app.db.select().from(identitySessions).where(eq(identitySessions.id, session.id));
    return current ?? session;
  }
  if (decision.status === IdentityStatus.approved && decision.person) {
    await writePersonToProfile(app, session.userId, decision.person);
  }
  return updated;
}

/**
 * Names, CNP, place of birth and home address from the document into the profile of the user's
 * request (merged in the database, so nothing the user typed meanwhile, such as the address, is lost).
 */
async function writePersonToProfile(app: FastifyInstance, userId: number, person: IdentityPerson): Promise<void> {
  const [user] = await app.db.select().from(users).where(eq(users.id, userId));
  const flow = user ? app.flows.byType[user.registrationType as 1 | 2] : undefined;
  if (!user || !flow) return;
  const request = await openRequest(app.db, user, flow);
  const values: Record<string, unknown> = {};
  for (const key of ['first_name', 'last_name', 'personal_code', 'place_of_birth'] as const) {
    const value = person[key];
    if (value) values[key] = value;
  }
  if (person.address) Object.assign(values, await documentAddressValues(app.db, person.address, request.profile));
  if (!Object.keys(values).length) return;
  await mergeProfile(app.db, request.id, values);
}

/** The home address keys of a profile that the document's address may fill (update-user-info's). */
const HOME_ADDRESS_KEYS = ['county_id', 'county', 'city_id', 'city', ...ADDRESS_PART_KEYS, 'address_1', 'address_2'] as const;

/**
 * The profile fields of the document's home address (issue 31). Always `document_address`, the text
 * as read. When the profile has no home address yet: matched with certainty and complete (a street
 * and a number), the address as `update-user-info` saves it (`city` the locality's label, the
 * formatted lines, the locality's postal code when the card gives none); otherwise what is certain
 * (the county, the locality, the street, the number, …) so that the address form opens with it and
 * the applicant picks or completes the rest. The step never waits on it.
 */
export async function documentAddressValues(db: Db, text: string, profile: Record<string, unknown>): Promise<Record<string, unknown>> {
  const values: Record<string, unknown> = { document_address: text };
  if (hasHomeAddress(profile)) return values;
  const match = await matchIdAddress(db, text);
  // A part longer than the address form accepts (schemas/user-info.json) is no reading to trust.
  const parts = Object.fromEntries(ADDRESS_PART_KEYS.map((key) => [key, match[key].length <= (key === 'street' ? 150 : 20) ? match[key] : ''])) as Record<
    (typeof ADDRESS_PART_KEYS)[number],
    string
  >;
  if (match.city) parts.postal_code ||= match.city.postalCode ?? '';
  if (match.county && match.city && parts.street && parts.number) {
    return {
      ...values,
      ...parts,
      county_id: match.county.id,
      county: match.county.name,
      city_id: match.city.id,
      city: match.city.label,
      address_1: formatAddressLine1(parts),
      address_2: formatAddressLine2({ city: match.city.label, county: match.county.name, countyCode: match.county.code, postalCode: parts.postal_code }),
    };
  }
  const known: Record<string, unknown> = {};
  if (match.county) Object.assign(known, { county_id: match.county.id, county: match.county.name });
  if (match.county && match.city) Object.assign(known, { city_id: match.city.id, city: match.city.label });
  for (const key of ADDRESS_PART_KEYS) if (parts[key]) known[key] = parts[key];
  // What an earlier document left and this one does not say goes, so the form shows no mix of two cards.
  for (const key of HOME_ADDRESS_KEYS) {
    if (!(key in known) && profile[key] !== undefined && profile[key] !== null && profile[key] !== '') known[key] = key.endsWith('_id') ? null : '';
  }
  return { ...values, ...known };
}

/** Why a session was not approved: `{ code, translated_reason }` (both null unless rejected). */
export function sessionError(session: IdentitySessionRow): { code: number | null; translated_reason: string | null } {
  if (session.status !== IdentityStatus.rejected) return { code: null, translated_reason: null };
  return { code: session.reasonCode ?? session.decisionCode, translated_reason: session.reason };
}

/** Marks the session deleted, removes its photos (rows and bytes) and, best effort, the provider's session. */
export async function deleteSession(app: FastifyInstance, session: IdentitySessionRow): Promise<void> {
  const [marked] = await app.db
    .update(identitySessions)
    .set({ deletedAt: new Date() })
    .where(and(eq(identitySessions.id, session.id), isNull(identitySessions.deletedAt)))
    .returning();
  if (!marked) return;
  const uploads = await app.db.delete(identityUploads).where(eq(identityUploads.identitySessionId, session.id)).returning();
  await deleteFiles(
    app,
    uploads.map((u) => u.fileId),
  );
  try {
    await providerFor(app, session).deleteSession(session.sessionId);
  } catch (error) {
    logProviderError(app, error, 'delete session');
  }
}

/** Deletes the user's current session, if any (the identity step's delete-and-restart). */
export async function deleteCurrentSession(app: FastifyInstance, userId: number): Promise<void> {
  const session = await lastSession(app.db, userId);
  if (session) await deleteSession(app, session);
}

type UploadRef = { file_id: number; preview_url: string } | null;

/** `GET /api/veriff/get-last-session`: the last session with its uploads, or null. */
export async function lastSessionView(db: Db, userId: number) {
  const session = await lastSession(db, userId);
  if (!session) return null;
  const uploads = await uploadsOf(db, session);
  const ref = (context: IdentityContext): UploadRef => {
    const upload = uploads.find((u) => u.context === context);
    return upload ? { file_id: upload.fileId, preview_url: fileUrl(upload.fileId) } : null;
  };
  return {
    session_id: session.sessionId,
    custom_id: session.customId,
    status: session.status,
    submitted: session.submittedAt !== null,
    uploads: { 'document-front': ref('document-front'), 'document-back': ref('document-back'), face: ref('face') },
  };
}


/**
 * Asks the identity provider to delete these sessions and their media (an erased account, issue 32):
 * best effort, one at a time; a failure is logged (with no personal data) and does not stop the rest.
 */
export async function forgetProviderSessions(app: FastifyInstance, sessions: readonly Pick<IdentitySessionRow, 'provider' | 'sessionId'>[]): Promise<void> {
  for (const session of sessions) {
    try {
      await providerFor(app, session as IdentitySessionRow).deleteSession(session.sessionId);
    } catch (error) {
      logProviderError(app, error, 'delete session');
    }
  }
}
