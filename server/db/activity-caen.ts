import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Each activity's default CAEN Rev.3 class (`caen` in server/db/seed/activities.json): the primary
 * code the overview step starts with (issue 17). Read from the seed file once, like the seeds
 * themselves at start (staff edit the file; a restart applies it); no table column, so no migration.
 */
const file = path.join(path.dirname(fileURLToPath(import.meta.url)), 'seed', 'activities.json');

let byActivity: Map<string, string> | null = null;

export function defaultCaenCode(activityCode: unknown): string | null {
  if (typeof activityCode !== 'string') return null;
  if (!byActivity) {
    const { activities } = JSON.parse(fs.readFileSync(file, 'utf8')) as { activities: Array<{ code: string; caen?: string | null }> };
    byActivity = new Map(activities.filter((a) => typeof a.caen === 'string' && a.caen).map((a) => [a.code, a.caen as string]));
  }
  return byActivity.get(activityCode) ?? null;
}
