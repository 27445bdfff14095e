import { asc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../db';
import {
  files,
  identitySessions,
  identityUploads,
  mailingAddresses,
  outbox,
  partners,
  payments,
  requestDocuments,
  timelineItems,
  tokens,
  userMeta,
  users,
} from '../db/schema';
import { signatureFileIdOf } from '../registration/signature';
import { requestsOfUser } from '../registration/store';
import { accessLogOf, type AccessLogEntry } from '../staff/audit';
import { consentsOf } from './consents';

type UserRow = typeof users.$inferSelect;
type FileRow = typeof files.$inferSelect;

/** A file of the export: its row (for reading the bytes) and where it goes in the zip. */
export interface ExportFile {
  row: FileRow;
  /** `fisiere/<id>-<kind>.<ext>`: no part of the original name (no path characters, nothing personal). */
  entryName: string;
  kind: string;
}

/**
 * Everything the product holds about one user (GDPR art. 15 and 20), read for the token's user only:
 * every query is scoped by `user.id` or by the ids of that user's own requests, sessions and files.
 *
 * Left out, on purpose:
 * - `users.password_hash` and `tokens.token_hash`: secrets (hashes of the password and of the
 *   sign-in / reset / verification links); they say nothing about the person and would help an attacker.
 * - `users.frontend_id`: the public id of unsubscribe links (a bearer value, not personal data).
 * - `identity_sessions.session_id` / `custom_id`: the provider's handles of the session (bearer values).
 * - `payments.id`, provider session / subscription / schedule ids: ids that open the checkout or
 *   the provider's records; amount, currency, status and dates are exported.
 * - outbox bodies: only recipient, subject and dates; links in them (verify, reset, auto-login)
 *   are secrets, so any URL is replaced with "[link]".
 * - `payment_events`, `processed_webhooks`, `idv_simulator_sessions`: provider event ids and
 *   simulator state, not linked to the user.
 * - the audit log's before/after payloads: staff-side state; who, what and when are exported.
 */
export interface ExportData {
  json: Record<string, unknown>;
  files: ExportFile[];
}

const EXTENSIONS: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/heic': 'heic',
  'image/heif': 'heif',
  'application/pdf': 'pdf',
};

/** Identity upload contexts, in the export's words. */
const IDENTITY_KINDS: Record<string, string> = {
  'document-front': 'id_front',
  'document-back': 'id_back',
  face: 'selfie',
};

/** Replaces every URL with "[link]": mails carry verification, reset and auto-login links. */
export function withoutLinks(text: string): string {
  return text.replace(/\b(?:https?:\/\/|www\.)[^\s<>"')\]]+/gi, '[link]');
}

const iso = (value: Date | null | undefined) => (value ? value.toISOString() : null);

export function entryNameOf(file: FileRow, kind: string): string {
  const safeKind = kind.replace(/[^a-z0-9_-]/gi, '_');
  return `fisiere/${file.id}-${safeKind}.${EXTENSIONS[file.contentType] ?? 'bin'}`;
}

export async function collectExport(db: Db, user: UserRow, product: { name: string; slug: string }, now = new Date()): Promise<ExportData> {
  const [partner] = await db.select({ slug: partners.slug, name: partners.name }).from(partners).where(eq(partners.id, user.partnerId));
  const meta = await db.select().from(userMeta).where(eq(userMeta.userId, user.id)).orderBy(asc(userMeta.id));
  const tokenRows = await db
    .select({
      purpose: tokens.purpose,
      source: tokens.source,
      createdAt: tokens.createdAt,
      expiresAt: tokens.expiresAt,
      usedAt: tokens.usedAt,
      revokedAt: tokens.revokedAt,
      lastUsedAt: tokens.lastUsedAt,
    })
    .from(tokens)
    .where(eq(tokens.userId, user.id))
    .orderBy(asc(tokens.id));

  const requests = await requestsOfUser(db, user.id);
  const requestIds = requests.map((r) => r.id);
  const [address] = await db.select().from(mailingAddresses).where(eq(mailingAddresses.userId, user.id));
  const timeline = requestIds.length
    ? await db.select().from(timelineItems).where(inArray(timelineItems.requestId, requestIds)).orderBy(asc(timelineItems.date), asc(timelineItems.id))
    : [];
  const paymentRows = requestIds.length
    ? await db.select().from(payments).where(inArray(payments.requestId, requestIds)).orderBy(asc(payments.createdAt))
    : [];
  const documents = requestIds.length ? await db.select().from(requestDocuments).where(inArray(requestDocuments.requestId, requestIds)) : [];

  const sessions = await db.select().from(identitySessions).where(eq(identitySessions.userId, user.id)).orderBy(asc(identitySessions.id));
  const sessionIds = sessions.map((s) => s.id);
  const uploads = sessionIds.length ? await db.select().from(identityUploads).where(inArray(identityUploads.identitySessionId, sessionIds)) : [];

  const fileRows = await db.select().from(files).where(eq(files.userId, user.id)).orderBy(asc(files.id));
  const mails = await db
    .select({ to: outbox.to, subject: outbox.subject, createdAt: outbox.createdAt, sentAt: outbox.sentAt })
    .from(outbox)
    .where(eq(outbox.to, user.email))
    .orderBy(asc(outbox.id));
  // Who at the product read or changed the user's dossiers, when (server/staff/audit.ts: scoped to the user's requests, no payloads).
  const accessLog: AccessLogEntry[] = await accessLogOf(db, user.id);

  // What each file is: an identity photo, a request document, a signature, else a plain upload.
  const kinds = new Map<number, string>();
  for (const upload of uploads) kinds.set(upload.fileId, IDENTITY_KINDS[upload.context] ?? 'identity');
  for (const document of documents) kinds.set(document.fileId, document.kind);
  for (const request of requests) {
    const signature = signatureFileIdOf(request.formData);
    if (signature !== null && !kinds.has(signature)) kinds.set(signature, 'signature');
  }
  const exportFiles: ExportFile[] = fileRows.map((row) => {
    const kind = kinds.get(row.id) ?? 'file';
    return { row, kind, entryName: entryNameOf(row, kind) };
  });

  const json: Record<string, unknown> = {
    exported_at: now.toISOString(),
    product: product.name,
    account: {
      email: user.email,
      phone: user.phone,
      registration_type: user.registrationType,
      partner: partner ? { slug: partner.slug, name: partner.name } : null,
      referral_code: user.referralCode,
      created_at: iso(user.createdAt),
      email_verified_at: iso(user.emailVerifiedAt),
      marketing: { accepted: user.marketingAccepted, unsubscribed_at: iso(user.unsubscribedAt) },
    },
    // Consents and other facts kept about the account (accepted cookies, sources, language), with dates.
    // Consents given (terms and privacy policy, marketing) with the texts' version, when and any withdrawal.
    consents: await consentsOf(db, user.id),
    // Other facts kept about the account (accepted cookies, sources, language), with dates.
    account_facts: meta.map((m) => ({ kind: m.metaKey, value: m.metaValue, at: iso(m.createdAt) })),
    sessions: tokenRows.map((t) => ({
      purpose: t.purpose,
      source: t.source,
      created_at: iso(t.createdAt),
      expires_at: iso(t.expiresAt),
      used_at: iso(t.usedAt),
      revoked_at: iso(t.revokedAt),
      last_used_at: iso(t.lastUsedAt),
    })),
    requests: requests.map((r) => ({
      id: r.id,
      type: r.registrationType,
      step: r.step,
      status: r.status,
      lost_reason: r.lostReason,
      created_at: iso(r.createdAt),
      updated_at: iso(r.updatedAt),
      paid_at: iso(r.paidAt),
      form_data: r.formData,
      profile: r.profile,
      // One correspondence address per user: shown with each of their requests.
      mailing_address: address
        ? {
            contact_first_name: address.contactFirstName,
            contact_last_name: address.contactLastName,
            contact_phone: address.contactPhone,
            county_id: address.countyId,
            city_id: address.cityId,
            postal_code: address.postalCode,
            street: address.street,
            number: address.number,
            building: address.building,
            entrance: address.entrance,
            floor: address.floor,
            apartment: address.apartment,
            created_at: iso(address.createdAt),
            updated_at: iso(address.updatedAt),
          }
        : null,
      timeline: timeline
        .filter((t) => t.requestId === r.id)
        .map((t) => ({ type: t.type, date: t.date, data: t.data, created_at: iso(t.createdAt) })),
      payments: paymentRows
        .filter((p) => p.requestId === r.id)
        .map((p) => ({
          provider: p.provider,
          amount_bani: p.amountBani,
          currency: p.currency,
          status: p.status,
          created_at: iso(p.createdAt),
          paid_at: iso(p.paidAt),
        })),
      documents: documents
        .filter((d) => d.requestId === r.id)
        .map((d) => ({ kind: d.kind, file: exportFiles.find((f) => f.row.id === d.fileId)?.entryName ?? null, created_at: iso(d.createdAt) })),
    })),
    identity_sessions: sessions.map((s) => ({
      provider: s.provider,
      status: s.status,
      created_at: iso(s.createdAt),
      submitted_at: iso(s.submittedAt),
      decided_at: iso(s.decidedAt),
      reason: s.reason,
      person: s.person ?? null,
      deleted_at: iso(s.deletedAt),
      uploads: uploads
        .filter((u) => u.identitySessionId === s.id)
        .map((u) => ({ context: u.context, file: exportFiles.find((f) => f.row.id === u.fileId)?.entryName ?? null, created_at: iso(u.createdAt) })),
    })),
    files: exportFiles.map((f) => ({
      name: f.entryName,
      original_name: f.row.originalName,
      content_type: f.row.contentType,
      size: f.row.size,
      created_at: iso(f.row.createdAt),
      kind: f.kind,
    })),
    mails: mails.map((m) => ({ to: m.to, subject: withoutLinks(m.subject), created_at: iso(m.createdAt), sent_at: iso(m.sentAt) })),
    access_log: accessLog,
  };
  return { json, files: exportFiles };
}
