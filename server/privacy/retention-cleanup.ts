/** Retention rules 2 and 4 (server/privacy/retention.ts): identity photos after the dossier's end, and the clean-up of kept records, old mails and failed file deletions. */
import { and, count, eq, inArray, isNotNull, isNull, lt, notExists, sql } from 'drizzle-orm';
import { fileDeletions, files, identitySessions, identityUploads, idvSimulatorSessions, outbox, retainedRecords, users } from '../db/schema';
import { forgetProviderSessions } from '../identity/service';
import { deleteQueuedFiles, queueFileDeletions } from './file-deletions';

import { addDays, day, SENT_MAIL_DAYS, statesOf, type RetentionLine, type Run } from './retention-run';

// ---------------------------------------------------------------- 2. identity photos

export async function identityMedia(run: Run): Promise<void> {
  const { app } = run;
  const { idMediaDays } = run.config;
  // Sessions whose photos are still kept (a session deleted by the applicant lost its photos then).
  const open = await app.db
    .select({ id: identitySessions.id, userId: identitySessions.userId, provider: identitySessions.provider, sessionId: identitySessions.sessionId, email: users.email })
    .from(identitySessions)
    .innerJoin(users, eq(users.id, identitySessions.userId))
    .where(and(isNull(identitySessions.deletedAt), isNull(identitySessions.mediaErasedAt)))
    .orderBy(identitySessions.userId, identitySessions.id);
  const byUser = new Map<number, typeof open>();
  for (const session of open) byUser.set(session.userId, [...(byUser.get(session.userId) ?? []), session]);
  const states = await statesOf(app.db, [...byUser.keys()]);
  for (const [userId, sessions] of byUser) {
    if (run.aborted()) return;
    const endedAt = states.get(userId)?.endedAt;
    if (!endedAt || run.asOf < addDays(endedAt, idMediaDays)) continue;
    const uploads = await app.db
      .select({ fileId: files.id, storageKey: files.storageKey })
      .from(identityUploads)
      .innerJoin(files, eq(files.id, identityUploads.fileId))
      .where(
        inArray(
          identityUploads.identitySessionId,
          sessions.map((s) => s.id),
        ),
      );
    const line: RetentionLine = {
      email: sessions[0].email,
      action: 'id_media',
      goes: [`fotografiile actului de identitate și selfie-ul (${uploads.length} fișiere, ${sessions.length} ${sessions.length === 1 ? 'verificare' : 'verificări'})`],
      kept: [],
      why: `dosar încheiat (finalizat, respins sau predat) pe ${day(endedAt)}, de peste ${idMediaDays} de zile; rămân decizia verificării și datele citite din act`,
    };
    await run.act(line, userId, async () => {
      if (!run.dry) await eraseIdentityMedia(run, sessions, uploads);
      run.counts.id_media += 1;
      return true;
    });
  }
}

async function eraseIdentityMedia(
  run: Run,
  sessions: { id: number; userId: number; provider: string; sessionId: string }[],
  uploads: { fileId: number; storageKey: string }[],
): Promise<void> {
  const { app } = run;
  const keys = uploads.map((u) => u.storageKey);
  await app.db.transaction(async (tx) => {
    // The uploads' rows go with their files (cascade); the sessions stay, marked.
    if (uploads.length) {
      await tx.delete(files).where(
        inArray(
          files.id,
          uploads.map((u) => u.fileId),
        ),
      );
    }
    await queueFileDeletions(tx, keys);
    await tx
      .update(identitySessions)
      .set({ mediaErasedAt: run.asOf })
      .where(
        and(
          inArray(
            identitySessions.id,
            sessions.map((s) => s.id),
          ),
          isNull(identitySessions.mediaErasedAt),
        ),
      );
    // The simulator keeps only the photos' names: they go too (its decision was taken and copied).
    const simulated = sessions.filter((s) => s.provider === 'simulator').map((s) => s.sessionId);
    if (simulated.length) await tx.update(idvSimulatorSessions).set({ media: [] }).where(inArray(idvSimulatorSessions.sessionId, simulated));
  });
  app.readCache?.dropUser(sessions[0].userId);
  run.counts.files_deleted += await deleteQueuedFiles(app.db, app.storage, app.log, keys);
  // The real provider keeps the session's photos: asked to delete the session (best effort, logged).
  await forgetProviderSessions(
    app,
    sessions.filter((s) => s.provider !== 'simulator'),
  );
}

// ---------------------------------------------------------------- 4. every run

const RETAINED_NAMES: Record<string, string> = { payment: 'evidența unei plăți', contract: 'contractul de asistență juridică semnat' };

export async function cleanUp(run: Run): Promise<void> {
  const { app } = run;
  const today = day(run.asOf);
  const expired = await app.db.select().from(retainedRecords).where(lt(retainedRecords.keepUntil, today)).orderBy(retainedRecords.id);
  for (const record of expired) {
    if (run.aborted()) return;
    const line: RetentionLine = {
      email: record.subject,
      action: 'retained_record',
      goes: [`${RETAINED_NAMES[record.kind] ?? record.kind}${record.storageKey ? ' (cu fișierul ei)' : ''}`],
      kept: [],
      why: `păstrat după ștergerea contului până la ${record.keepUntil}, cât cere legea`,
    };
    await run.act(line, null, async () => {
      if (!run.dry) {
        const keys = record.storageKey ? [record.storageKey] : [];
        const gone = await app.db.transaction(async (tx) => {
          const deleted = await tx.delete(retainedRecords).where(eq(retainedRecords.id, record.id)).returning({ id: retainedRecords.id });
          if (deleted.length) await queueFileDeletions(tx, keys);
          return deleted.length > 0;
        });
        if (!gone) return false;
        run.counts.files_deleted += await deleteQueuedFiles(app.db, app.storage, app.log, keys);
      }
      run.counts.retained_records += 1;
      return true;
    });
  }

  // Sent mails of addresses that have no account any more (erased, or never finished registering).
  const oldMail = and(
    isNotNull(outbox.sentAt),
    lt(outbox.sentAt, addDays(run.asOf, -SENT_MAIL_DAYS)),
    notExists(app.db.select({ one: sql`1` }).from(users).where(eq(users.email, outbox.to))),
  );
  if (run.dry) {
    const [row] = await app.db.select({ n: count() }).from(outbox).where(oldMail);
    run.counts.mails_deleted += row?.n ?? 0;
    const [queued] = await app.db.select({ n: count() }).from(fileDeletions);
    run.counts.files_deleted += queued?.n ?? 0;
    return;
  }
  const mails = await app.db.delete(outbox).where(oldMail).returning({ id: outbox.id });
  run.counts.mails_deleted += mails.length;
  // What an earlier deletion could not remove from the storage.
  run.counts.files_deleted += await deleteQueuedFiles(app.db, app.storage, app.log);
}
