import fp from 'fastify-plugin';
import { runScheduledRetention } from '../privacy/retention-schedule';

/** How often each instance looks whether today's retention run is still to be done. */
export const RETENTION_CHECK_MS = 60 * 60 * 1000;
/** The first look after the start (not at once: a deploy starts every instance together, and a short-lived process never runs it). */
export const RETENTION_FIRST_CHECK_MS = 5 * 60 * 1000;

/**
 * The retention job's schedule (issue 32, server/privacy/retention.ts): once the app is ready, every
 * instance looks every hour (timers unref'd: they never keep the process alive) and the one that
 * claims the day's row in `job_runs` runs it (retention-schedule.ts): once a day across any number
 * of instances on one database, with no other lock. `RETENTION_JOB=0` turns the schedule off on this
 * instance (tests; an instance kept apart); `npm run ops -- retention` still runs it. Closing the app
 * clears the timers and stops a run under way between two accounts.
 */
export default fp<{ checkMs?: number; firstCheckMs?: number }>(
  async (app, options) => {
    if (!app.config.retention.scheduled) return;
    const stop = new AbortController();
    let first: NodeJS.Timeout | null = null;
    let every: NodeJS.Timeout | null = null;
    let running: Promise<unknown> | null = null;
    const check = () => {
      if (running || stop.signal.aborted) return;
      running = runScheduledRetention(app, { signal: stop.signal })
        .catch((error: unknown) => app.log.error({ err: error }, 'retention: the scheduled check failed'))
        .finally(() => {
          running = null;
        });
    };
    app.addHook('onReady', async () => {
      first = setTimeout(check, options.firstCheckMs ?? RETENTION_FIRST_CHECK_MS);
      every = setInterval(check, options.checkMs ?? RETENTION_CHECK_MS);
      first.unref();
      every.unref();
    });
    app.addHook('preClose', async () => {
      stop.abort();
      if (first) clearTimeout(first);
      if (every) clearInterval(every);
      await running;
    });
  },
  { name: 'retention', dependencies: ['config', 'database', 'flows', 'mail', 'storage', 'identity', 'read-cache'], fastify: '5.x' },
);
