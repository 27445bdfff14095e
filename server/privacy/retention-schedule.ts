import { and, eq, isNull, lt } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../db';
import { jobRuns } from '../db/schema';
import { runRetention, type RetentionReport } from './retention';

/** The job's name in `job_runs`. */
export const RETENTION_JOB = 'retention';

/**
 * A claimed run that has not finished after this long is taken to be dead (its instance stopped or
 * crashed mid-run, or the run failed): another instance may claim it again.
 */
export const STALE_RUN_MS = 6 * 60 * 60 * 1000;

/**
 * Claims the run of `job` for `day` (YYYY-MM-DD, UTC) for this instance: one `INSERT … ON CONFLICT DO
 * NOTHING RETURNING` on the (job, day) key, so of any number of instances on one database (PGlite
 * or PostgreSQL) exactly one gets the row. A run of that day left unfinished for `STALE_RUN_MS` is
 * taken over by one conditional `UPDATE … RETURNING` (the same row, so again only one wins).
 */
export async function claimJobRun(db: Db, job: string, day: string, now = new Date()): Promise<boolean> {
  const [claimed] = await db.insert(jobRuns).values({ job, day, startedAt: now }).onConflictDoNothing().returning({ day: jobRuns.day });
  if (claimed) return true;
  const [taken] = await db
    .update(jobRuns)
    .set({ startedAt: now, summary: null })
    .where(and(eq(jobRuns.job, job), eq(jobRuns.day, day), isNull(jobRuns.finishedAt), lt(jobRuns.startedAt, new Date(now.getTime() - STALE_RUN_MS))))
    .returning({ day: jobRuns.day });
  return Boolean(taken);
}

/**
 * The scheduled run (server/plugins/retention.ts calls it every hour on every instance): the instance
 * that claims today's (UTC) run runs the job as of now and records what it did in `job_runs`
 * (`finished_at`, `summary`: the counts); the others, and this one later in the day, do nothing and
 * answer null. A run that fails or is stopped (the app closing) leaves `finished_at` empty with the
 * error in `summary`: it is claimed again `STALE_RUN_MS` later, or the next day.
 */
export async function runScheduledRetention(app: FastifyInstance, options: { now?: Date; signal?: AbortSignal } = {}): Promise<RetentionReport | null> {
  const now = options.now ?? new Date();
  const day = now.toISOString().slice(0, 10);
  if (!(await claimJobRun(app.db, RETENTION_JOB, day, now))) return null;
  const where = and(eq(jobRuns.job, RETENTION_JOB), eq(jobRuns.day, day));
  try {
    const report = await runRetention(app, { asOf: now, dryRun: false, signal: options.signal });
    await app.db
      .update(jobRuns)
      .set({ finishedAt: report.stopped ? null : new Date(), summary: { ...report.counts, stopped: report.stopped } })
      .where(where);
    app.log.info({ job: RETENTION_JOB, day, ...report.counts, stopped: report.stopped }, 'retention: the scheduled run is done');
    return report;
  } catch (error) {
    app.log.error({ err: error, job: RETENTION_JOB, day }, 'retention: the scheduled run failed; it is tried again later');
    await app.db
      .update(jobRuns)
      .set({ summary: { error: error instanceof Error ? error.message : String(error) } })
      .where(where)
      .catch(() => undefined);
    return null;
  }
}
