import { randomBytes } from 'node:crypto';

let count = 0;

/**
 * An e-mail address no other test of the run uses, by construction: `prefix.<pid>-<count>-<time><random>@exemplu.ro`,
 * this process (a test worker), its own count, then the time and two random bytes (another run). Time
 * and random bytes alone once collided: 51 addresses made in one millisecond, limits.test.ts against
 * PostgreSQL, whose run database every worker shares. The prefix keeps its case (some tests change it
 * to check case-insensitive addresses). The API tests (tests/server/helpers.ts) and the e2e tests
 * (tests/e2e/fixtures.ts) both use it.
 */
export function uniqueAddress(prefix: string): string {
  return `${prefix}.${process.pid.toString(36)}-${(count++).toString(36)}-${Date.now().toString(36)}${randomBytes(2).toString('hex')}@exemplu.ro`;
}
