import type { Redis } from 'ioredis';
import { todayInRomania } from '../../src/core/timeline';
import { CompanyLookupUnavailableError, legalFormOf, normaliseCaenCode, type CompanyLookup, type CompanyRecord } from './types';

/** Path of ANAF's synchronous VAT-register web service, version 9 (the public "PlatitorTvaRest" API). */
export const ANAF_TVA_PATH = '/api/PlatitorTvaRest/v9/tva';

export interface AnafLookupOptions {
  /** `https://webservicesp.anaf.ro` (no trailing slash). */
  baseUrl: string;
  /** A call that has not answered after this long fails as "service unavailable". Default 10 s. */
  timeoutMs?: number;
  /** At least this long between the starts of two calls (ANAF allows 1 request per second). Default 1 s. */
  minIntervalMs?: number;
  /** A lookup that would wait longer than this for its turn fails at once as "service unavailable". Default 10 s. */
  maxQueueMs?: number;
  /** How long an answer is kept: a found company, and a CUI ANAF does not know. Defaults 24 h and 1 h. */
  foundTtlMs?: number;
  notFoundTtlMs?: number;
  /** Most answers kept; the oldest goes first. Default 5000. */
  maxCacheEntries?: number;
  /** Clock of the cache (tests move it); the rate limit always uses the real monotonic clock. */
  now?: () => number;
  /**
   * Redis shared by every instance (`REDIS_URL`): the answers are kept there (`{prefix}cui:{cui}`,
   * expiring with their TTL) and the 1 call/s pace is one slot key (`{prefix}pace`) on Redis's own
   * clock, so two instances together still call ANAF at most once a second. Unset: both in memory.
   */
  shared?: { redis: Redis; prefix: string } | null;
}

/**
 * Takes the next turn to call ANAF: the slot key holds the Redis time (ms) from which the next call
 * may start; the script moves it one interval on and answers how long this call waits (-1: longer
 * than the longest wait, nothing taken). Atomic, on one clock for every instance.
 */
const TAKE_TURN = `local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local slot = tonumber(redis.call('GET', KEYS[1]) or '0')
local start = math.max(now, slot)
local wait = start - now
if wait > tonumber(ARGV[2]) then return -1 end
redis.call('SET', KEYS[1], tostring(start + tonumber(ARGV[1])), 'PX', wait + tonumber(ARGV[1]) + 1000)
return wait`;

/** One entry of ANAF's `found` (v9): general data plus the registered office and fiscal domicile. */
interface AnafFound {
  date_generale?: {
    cui?: number | string;
    denumire?: string;
    adresa?: string;
    nrRegCom?: string;
    forma_juridica?: string;
    forma_organizare?: string;
    /** The main activity's CAEN class ("6201"; at times "111" for 0111, or empty). */
    cod_CAEN?: string | number;
  };
  adresa_sediu_social?: Record<string, unknown>;
  adresa_domiciliu_fiscal?: Record<string, unknown>;
}

interface AnafAnswer {
  cod?: number;
  message?: string;
  found?: AnafFound[];
  notFound?: Array<number | string | { cui?: number | string }>;
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() ? value.trim() : null;
}

function sameCui(value: unknown, cui: string): boolean {
  if (value && typeof value === 'object') return sameCui((value as { cui?: unknown }).cui, cui);
  return (typeof value === 'number' || typeof value === 'string') && String(value).replace(/\D/g, '') === cui;
}

/** An address from ANAF's split fields (`s…` of the registered office, `d…` of the fiscal domicile). */
function joinAddress(parts: Record<string, unknown> | undefined, prefix: 's' | 'd'): string | null {
  if (!parts) return null;
  const county = text(parts[`${prefix}denumire_Judet`]);
  const city = text(parts[`${prefix}denumire_Localitate`]);
  const street = text(parts[`${prefix}denumire_Strada`]);
  const number = text(parts[`${prefix}numar_Strada`]);
  const details = text(parts[`${prefix}detalii_Adresa`]);
  const pieces = [county ? `JUD. ${county}` : null, city, street, number ? `NR. ${number}` : null, details].filter(Boolean);
  return pieces.length ? pieces.join(', ') : null;
}

/** ANAF's record of a company in our terms. */
export function recordFromAnaf(found: AnafFound, cui: string): CompanyRecord {
  const general = found.date_generale ?? {};
  const name = text(general.denumire) ?? '';
  const office = found.adresa_sediu_social;
  const domicile = found.adresa_domiciliu_fiscal;
  const legalForm = legalFormOf({ legalForm: text(general.forma_juridica), name });
  return {
    fiscal_code: cui,
    name,
    address: text(general.adresa) ?? joinAddress(office, 's') ?? joinAddress(domicile, 'd') ?? '',
    registration_number: text(general.nrRegCom),
    legal_form: legalForm,
    is_pfa: legalForm === 'PFA',
    county: text(office?.sdenumire_Judet) ?? text(domicile?.ddenumire_Judet),
    city: text(office?.sdenumire_Localitate) ?? text(domicile?.ddenumire_Localitate),
    caen_code: normaliseCaenCode(general.cod_CAEN),
  };
}

/** A record kept before `caen_code` was read (in Redis for up to a day after the upgrade) reads as one without a code. */
function kept(record: CompanyRecord | null): CompanyRecord | null {
  return record && { ...record, caen_code: record.caen_code ?? null };
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * The ANAF public web service (webservicesp.anaf.ro, "PlatitorTvaRest" v9): `POST /api/PlatitorTvaRest/v9/tva`
 * with `[{ "cui": 42157397, "data": "YYYY-MM-DD" }]`, answered with `{ cod, message, found: [{ date_generale:
 * { denumire, adresa, nrRegCom, forma_juridica, cod_CAEN, … }, adresa_sediu_social, adresa_domiciliu_fiscal, … }],
 * notFound: [cui] }`. Called only by the server: at most one call per second (later lookups wait
 * their turn), each answer kept in memory for a while (not-found too), a time limit per call, and
 * every failure reported as `CompanyLookupUnavailableError` with a Romanian message.
 */
export class AnafCompanyLookup implements CompanyLookup {
  readonly name = 'anaf' as const;
  private readonly url: string;
  private readonly timeoutMs: number;
  private readonly minIntervalMs: number;
  private readonly maxQueueMs: number;
  private readonly foundTtlMs: number;
  private readonly notFoundTtlMs: number;
  private readonly maxCacheEntries: number;
  private readonly now: () => number;
  private readonly cache = new Map<string, { record: CompanyRecord | null; expiresAt: number }>();
  private readonly inFlight = new Map<string, Promise<CompanyRecord | null>>();
  /** performance.now() from which the next call may start. */
  private nextSlot = 0;
  private readonly shared: { redis: Redis; prefix: string } | null;

  constructor(options: AnafLookupOptions) {
    this.url = `${options.baseUrl.replace(/\/+$/, '')}${ANAF_TVA_PATH}`;
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.minIntervalMs = options.minIntervalMs ?? 1000;
    this.maxQueueMs = options.maxQueueMs ?? 10_000;
    this.foundTtlMs = options.foundTtlMs ?? 24 * 60 * 60 * 1000;
    this.notFoundTtlMs = options.notFoundTtlMs ?? 60 * 60 * 1000;
    this.maxCacheEntries = options.maxCacheEntries ?? 5000;
    this.now = options.now ?? Date.now;
    this.shared = options.shared ?? null;
  }

  /** Redis failing is the lookup failing: "service unavailable", never a 500. */
  private async sharedCall<T>(what: string, call: (redis: Redis, prefix: string) => Promise<T>): Promise<T> {
    const { redis, prefix } = this.shared as { redis: Redis; prefix: string };
    try {
      return await call(redis, prefix);
    } catch (error) {
      throw new CompanyLookupUnavailableError(undefined, `ANAF ${what} (Redis): ${(error as Error).message}`);
    }
  }

  async lookup(cui: string): Promise<CompanyRecord | null> {
    if (!/^[0-9]{2,10}$/.test(cui)) throw new Error(`not a normalised CUI: ${cui}`);
    if (this.shared) {
      const stored = await this.sharedCall('cache', (redis, prefix) => redis.get(`${prefix}cui:${cui}`));
      if (stored !== null) return kept((JSON.parse(stored) as { record: CompanyRecord | null }).record);
    }
    const cached = this.cache.get(cui);
    if (cached && cached.expiresAt > this.now()) return cached.record && { ...cached.record };
    if (cached) this.cache.delete(cui);
    // Two people (or a double click) asking for the same CUI at once share one call.
    const pending = this.inFlight.get(cui);
    if (pending) return pending.then((record) => record && { ...record });
    const call = this.fetchAndKeep(cui).finally(() => this.inFlight.delete(cui));
    this.inFlight.set(cui, call);
    return call.then((record) => record && { ...record });
  }

  /** Waits for this call's turn: starts are at least `minIntervalMs` apart, in the order they asked. */
  private async waitForTurn(): Promise<void> {
    if (this.shared) {
      const wait = await this.sharedCall('pace', (redis, prefix) =>
        redis.eval(TAKE_TURN, 1, `${prefix}pace`, String(this.minIntervalMs), String(this.maxQueueMs)),
      );
      if (Number(wait) < 0) throw new CompanyLookupUnavailableError(undefined, 'ANAF queue (shared): the next turn is too far');
      if (Number(wait) > 0) await sleep(Number(wait));
      return;
    }
    const now = performance.now();
    const start = Math.max(now, this.nextSlot);
    if (start - now > this.maxQueueMs) throw new CompanyLookupUnavailableError(undefined, `ANAF queue: next turn in ${Math.round(start - now)} ms`);
    this.nextSlot = start + this.minIntervalMs;
    if (start > now) await sleep(start - now);
  }

  private async fetchAndKeep(cui: string): Promise<CompanyRecord | null> {
    const record = await this.fetchOne(cui);
    const ttl = record ? this.foundTtlMs : this.notFoundTtlMs;
    if (this.shared) {
      await this.sharedCall('cache', (redis, prefix) => redis.set(`${prefix}cui:${cui}`, JSON.stringify({ record }), 'PX', ttl));
      return record;
    }
    if (this.cache.size >= this.maxCacheEntries) {
      const oldest = this.cache.keys().next().value;
      if (oldest !== undefined) this.cache.delete(oldest);
    }
    this.cache.set(cui, { record, expiresAt: this.now() + ttl });
    return record;
  }

  private async fetchOne(cui: string): Promise<CompanyRecord | null> {
    await this.waitForTurn();
    let response: Response;
    try {
      response = await fetch(this.url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
        body: JSON.stringify([{ cui: Number(cui), data: todayInRomania() }]),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (error) {
      throw new CompanyLookupUnavailableError(undefined, `ANAF POST ${ANAF_TVA_PATH}: ${(error as Error).message}`);
    }
    let raw: string;
    try {
      raw = await response.text();
    } catch (error) {
      throw new CompanyLookupUnavailableError(undefined, `ANAF POST ${ANAF_TVA_PATH}: ${(error as Error).message}`);
    }
    if (!response.ok) throw new CompanyLookupUnavailableError(undefined, `ANAF POST ${ANAF_TVA_PATH}: HTTP ${response.status} ${raw.slice(0, 200)}`);
    let answer: AnafAnswer;
    try {
      answer = JSON.parse(raw) as AnafAnswer;
    } catch {
      throw new CompanyLookupUnavailableError(undefined, `ANAF POST ${ANAF_TVA_PATH}: the answer is not JSON: ${raw.slice(0, 200)}`);
    }
    const found = Array.isArray(answer?.found) ? answer.found.find((f) => sameCui(f?.date_generale?.cui, cui)) : undefined;
    if (found && text(found.date_generale?.denumire)) return recordFromAnaf(found, cui);
    if (Array.isArray(answer?.notFound) && answer.notFound.some((n) => sameCui(n, cui))) return null;
    throw new CompanyLookupUnavailableError(undefined, `ANAF POST ${ANAF_TVA_PATH}: the answer names neither found nor notFound for ${cui} (cod ${String(answer?.cod)})`);
  }
}
