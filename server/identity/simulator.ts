import { randomUUID } from 'node:crypto';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../db';
import { idvSimulatorSessions } from '../db/schema';
import { romanianReason } from './reasons';
import { romanianPerson, simulatedAddress } from './romanian-person';
import {
  IdentityProviderError,
  IdentityStatus,
  type IdentityContext,
  type IdentityDecision,
  type IdentityMedia,
  type IdentityProvider,
} from './types';

/** Veriff's reason code of a decline caused by a photo named `…reject…`, by the context of the first such photo. */
const DECLINES: Record<IdentityContext, number> = { 'document-front': 204, 'document-back': 204, face: 103 };

/**
 * The built-in identity provider (no set-up): Veriff's life cycle with its state in the database.
 * It decides `delayMs` after submit, lazily, when the decision is asked (no timers, so a restart
 * loses nothing): it approves with a generated Romanian person, or declines with a Romanian reason
 * when the name of any uploaded photo contains "reject".
 *
 * The person's home address, as the card writes it, is one that matches the register with
 * certainty; a photo name chooses another (for tests and demos): "fara-adresa" none (address
 * extraction off), "fara-strada" a village address without a street, "adresa-nesigura" a village
 * whose name repeats within its county, without its commune (the applicant picks the locality).
 */
export class SimulatorProvider implements IdentityProvider {
  readonly name = 'simulator' as const;

  constructor(
    private readonly db: Db,
    private readonly delayMs: number,
    private readonly now: () => Date = () => new Date(),
  ) {}

  private async session(sessionId: string) {
    const [row] = await this.db
      .select()
      .from(idvSimulatorSessions)
      .where(and(eq(idvSimulatorSessions.sessionId, sessionId), isNull(idvSimulatorSessions.deletedAt)));
    if (!row) throw new IdentityProviderError(`simulator: no session ${sessionId}`, 404);
    return row;
  }

  async createSession(input: { vendorData: string }): Promise<{ sessionId: string }> {
    const sessionId = randomUUID();
    await this.db.insert(idvSimulatorSessions).values({ sessionId, vendorData: input.vendorData });
    return { sessionId };
  }

  async uploadMedia(sessionId: string, media: IdentityMedia): Promise<void> {
    const row = await this.session(sessionId);
    if (row.submittedAt) throw new IdentityProviderError(`simulator: session ${sessionId} already submitted`, 409);
    const entry = JSON.stringify([{ context: media.context, name: media.fileName }]);
    await this.db
      .update(idvSimulatorSessions)
      .set({ media: sql`${idvSimulatorSessions.media} || ${entry}::jsonb` })
      .where(eq(idvSimulatorSessions.sessionId, sessionId));
  }

  async submit(sessionId: string): Promise<void> {
    await this.session(sessionId);
    await this.db
      .update(idvSimulatorSessions)
      .set({ submittedAt: this.now() })
      .where(and(eq(idvSimulatorSessions.sessionId, sessionId), isNull(idvSimulatorSessions.submittedAt)));
  }

  async decision(sessionId: string): Promise<IdentityDecision | null> {
    const row = await this.session(sessionId);
    if (!row.submittedAt) return null;
    const decidedAt = new Date(row.submittedAt.getTime() + this.delayMs);
    if (this.now() < decidedAt) return null;
    const rejected = row.media.find((m) => m.name.toLowerCase().includes('reject'));
    if (rejected) {
      const reasonCode = DECLINES[rejected.context as IdentityContext] ?? DECLINES['document-front'];
      return { status: IdentityStatus.rejected, providerStatus: 'declined', code: 9102, reasonCode, reason: romanianReason(reasonCode, 'declined'), person: null, decidedAt };
    }
    const person = romanianPerson(sessionId);
    const named = (word: string) => row.media.some((m) => m.name.toLowerCase().includes(word));
    if (named('fara-adresa')) person.address = null;
    else if (named('adresa-nesigura')) person.address = simulatedAddress(sessionId, 'uncertain');
    else if (named('fara-strada')) person.address = simulatedAddress(sessionId, 'no-street');
    return {
      status: IdentityStatus.approved,
      providerStatus: 'approved',
      code: 9001,
      reasonCode: null,
      reason: null,
      person,
      decidedAt,
    };
  }

  async deleteSession(sessionId: string): Promise<void> {
    await this.db
      .update(idvSimulatorSessions)
      .set({ deletedAt: this.now() })
      .where(and(eq(idvSimulatorSessions.sessionId, sessionId), isNull(idvSimulatorSessions.deletedAt)));
  }
}
