import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { and, desc, eq, isNull } from 'drizzle-orm';
import type { Db } from '../db';
import { consents } from '../db/schema';

/** The legal texts an applicant accepts with the registration's checkbox (content/legal/). */
const LEGAL_DIR = new URL('../../content/legal/', import.meta.url);
const ACCEPTED_TEXTS = [
  { name: 'termeni', file: 'termeni.md' },
  { name: 'confidentialitate', file: 'confidentialitate.md' },
] as const;

/** "*Ultima actualizare: 25 noiembrie 2026.*" → "25 noiembrie 2026". */
function updatedOn(markdown: string): string | null {
  return /Ultima actualizare:\s*([^.*\n]+)/i.exec(markdown)?.[1]?.trim() ?? null;
}

/**
 * The version of the texts accepted at registration (issue 32): for each of the terms and the
 * privacy policy, the date it says it was last updated and the first 12 hex digits of the SHA-256 of
 * the file as served, e.g. `termeni 25 noiembrie 2026 (3f1c…); confidentialitate …`. The hash
 * changes with any edit, so the exact text an applicant accepted can be found in git.
 */
export function legalTextsVersion(read: (file: string) => string = (file) => readFileSync(new URL(file, LEGAL_DIR), 'utf8')): string {
  return ACCEPTED_TEXTS.map(({ name, file }) => {
    const text = read(file);
    const hash = createHash('sha256').update(text).digest('hex').slice(0, 12);
    const date = updatedOn(text);
    return `${name} ${date ? `${date} ` : ''}(${hash})`;
  }).join('; ');
}

let cachedVersion: string | null = null;

/** The current texts' version, read once per process (the files are part of the release). */
export function currentLegalTextsVersion(): string {
  cachedVersion ??= legalTextsVersion();
  return cachedVersion;
}

/**
 * Records the registration checkbox (spec 000: `marketing_accepted`, "Accept termenii și condițiile
 * și sunt de acord să primesc comunicări de marketing…"): it gives two consents, the terms with the
 * privacy policy and marketing mails, both with the texts' version and the time. In the
 * registration's transaction.
 */
export async function recordRegistrationConsents(db: Pick<Db, 'insert'>, userId: number, at = new Date()): Promise<void> {
  const version = currentLegalTextsVersion();
  await db.insert(consents).values([
    { userId, kind: 'terms', version, acceptedAt: at },
    { userId, kind: 'marketing', version, acceptedAt: at },
  ]);
}

/** Withdraws the user's marketing consent (the unsubscribe link, the "Datele tale" page); a second withdrawal changes nothing. */
export async function withdrawMarketing(db: Pick<Db, 'update'>, userId: number, at = new Date()): Promise<void> {
  await db
    .update(consents)
    .set({ withdrawnAt: at })
    .where(and(eq(consents.userId, userId), eq(consents.kind, 'marketing'), isNull(consents.withdrawnAt)));
}

export interface ConsentState {
  terms: { version: string; accepted_at: string } | null;
  marketing: { accepted: boolean; accepted_at: string | null; withdrawn_at: string | null };
}

/** The latest consent of each kind, as the "Datele tale" page shows it. */
export async function consentState(db: Db, userId: number): Promise<ConsentState> {
  const rows = await db.select().from(consents).where(eq(consents.userId, userId)).orderBy(desc(consents.acceptedAt), desc(consents.id));
  const terms = rows.find((r) => r.kind === 'terms');
  const marketing = rows.find((r) => r.kind === 'marketing');
  return {
    terms: terms ? { version: terms.version, accepted_at: terms.acceptedAt.toISOString() } : null,
    marketing: {
      accepted: Boolean(marketing && !marketing.withdrawnAt),
      accepted_at: marketing ? marketing.acceptedAt.toISOString() : null,
      withdrawn_at: marketing?.withdrawnAt ? marketing.withdrawnAt.toISOString() : null,
    },
  };
}

/** Every consent row of the user, oldest first, for the export. */
export async function consentsOf(db: Db, userId: number) {
  const rows = await db.select().from(consents).where(eq(consents.userId, userId)).orderBy(consents.acceptedAt, consents.id);
  return rows.map((r) => ({
    kind: r.kind,
    version: r.version,
    accepted_at: r.acceptedAt.toISOString(),
    withdrawn_at: r.withdrawnAt ? r.withdrawnAt.toISOString() : null,
  }));
}
