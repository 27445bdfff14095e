import type { Redis } from 'ioredis';
import { counted } from './rate-limits';

/**
 * Counts attempts per key in a fixed window (failed logins per e-mail, forgot password per
 * e-mail; the per-address limits are in rate-limits.ts). Two implementations behind these three
 * methods: in memory (one server process, the default) and Redis (`REDIS_URL`: every instance
 * counts together; Redis unreachable: 503 with a Romanian message, the limit is never skipped).
 */
export interface AttemptLimiter {
  /** Seconds until the key may try again, or 0 when it is not blocked. */
  blockedFor(key: string): Promise<number>;
  hit(key: string): Promise<void>;
  reset(key: string): Promise<void>;
}

export class MemoryAttemptLimiter implements AttemptLimiter {
  private readonly hits = new Map<string, { count: number; resetAt: number }>();

  constructor(
    private readonly max: number,
    private readonly windowMs: number,
    private readonly now: () => number = () => Date.now(),
  ) {}

  async blockedFor(key: string): Promise<number> {
    const entry = this.hits.get(key);
    const now = this.now();
    if (!entry || entry.resetAt <= now) return 0;
    return entry.count >= this.max ? Math.ceil((entry.resetAt - now) / 1000) : 0;
  }

  async hit(key: string): Promise<void> {
    const now = this.now();
    const entry = this.hits.get(key);
    if (!entry || entry.resetAt <= now) {
      this.hits.set(key, { count: 1, resetAt: now + this.windowMs });
      if (this.hits.size > 10_000) this.prune(now);
    } else {
      entry.count += 1;
    }
  }

  async reset(key: string): Promise<void> {
    this.hits.delete(key);
  }

  private prune(now: number): void {
    for (const [key, entry] of this.hits) if (entry.resetAt <= now) this.hits.delete(key);
  }
}

/** INCR, and the window's expiry set by the first hit (a fixed window, as in memory). */
const HIT = `local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return n`;

/** One counter per key in Redis: `{prefix}{key}`, expiring with its window. */
export class RedisAttemptLimiter implements AttemptLimiter {
  constructor(
    private readonly redis: Redis,
    /** e.g. `ghiseu:attempts:login-email:` */
    private readonly prefix: string,
    private readonly max: number,
    private readonly windowMs: number,
  ) {}

  async blockedFor(key: string): Promise<number> {
    const [[, count], [, ttl]] = (await counted(() => this.redis.multi().get(this.prefix + key).pttl(this.prefix + key).exec())) as [
      [Error | null, string | null],
      [Error | null, number],
    ];
    if (!count || Number(count) < this.max || ttl <= 0) return 0;
    return Math.ceil(ttl / 1000);
  }

  async hit(key: string): Promise<void> {
    await counted(() => this.redis.eval(HIT, 1, this.prefix + key, String(this.windowMs)));
  }

  async reset(key: string): Promise<void> {
    await counted(() => this.redis.del(this.prefix + key));
  }
}
