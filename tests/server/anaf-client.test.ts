import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AnafCompanyLookup } from '../../server/company/anaf';
import { CompanyLookupUnavailableError, legalFormOf } from '../../server/company/types';
import { todayInRomania } from '../../src/core/timeline';
import { Redis } from 'ioredis';
import { anafPfa, anafSrl, FakeAnaf } from './fake-anaf';
import { REDIS_SKIP_REASON, REDIS_URL, deleteKeys, redisAvailable, redisRunPrefix } from './redis-helpers';

const UNAVAILABLE = 'Serviciul ANAF nu răspunde acum. Te rugăm să încerci din nou în câteva minute.';
const PFA = 42157397;
const OTHER_PFA = 46720190;
const SRL = 37028469;
const UNKNOWN = 38176420;

describe('ANAF company lookup (PlatitorTvaRest v9) against a local fake', () => {
  const fake = new FakeAnaf();
  beforeAll(async () => {
    await fake.start();
    fake.add(anafPfa(PFA), anafPfa(OTHER_PFA, 'IONESCU MARIA-ELENA PFA'), anafSrl(SRL));
  });
  afterAll(() => fake.stop());
  beforeEach(() => {
    fake.calls.length = 0;
    fake.failNext = 0;
    fake.garbageNext = 0;
    fake.delayMs = 0;
  });

  /** A client that does not wait between calls (the rate limit has its own test with the defaults). */
  const quick = (options: Partial<ConstructorParameters<typeof AnafCompanyLookup>[0]> = {}) =>
    new AnafCompanyLookup({ baseUrl: `${fake.url}/`, minIntervalMs: 0, ...options });

  it('asks ANAF v9 for one CUI with today’s date and maps a PFA (empty forma_juridica, the form in its name)', async () => {
    const record = await quick().lookup(String(PFA));
    expect(fake.calls).toHaveLength(1);
    expect(fake.calls[0]).toMatchObject({ method: 'POST', path: '/api/PlatitorTvaRest/v9/tva', body: [{ cui: PFA, data: todayInRomania() }] });
    expect(fake.calls[0].contentType).toMatch(/^application\/json/);
    expect(record).toEqual({
      fiscal_code: '42157397',
      name: 'POPESCU ION PERSOANĂ FIZICĂ AUTORIZATĂ',
      address: 'JUD. CLUJ, MUN. CLUJ-NAPOCA, STR. MEMORANDUMULUI, NR.12, AP.4',
      registration_number: 'F12/345/2020',
      legal_form: 'PFA',
      is_pfa: true,
      // The registered office is empty for a PFA: county and city come from the fiscal domicile.
      county: 'CLUJ',
      city: 'Mun. Cluj-Napoca',
      // `date_generale.cod_CAEN`, as ANAF gives it.
      caen_code: '6201',
    });
  });

  it('maps an SRL as not a PFA, with the county and city of its registered office', async () => {
    const record = await quick().lookup(String(SRL));
    expect(record).toMatchObject({ fiscal_code: String(SRL), name: 'ALFA CONTABIL SOFT SRL', legal_form: 'SRL', is_pfa: false, registration_number: 'J40/5521/2017' });
    expect(record?.county).toBe('MUNICIPIUL BUCUREŞTI');
    expect(record?.city).toBe('Sector 1 Mun. Bucureşti');
  });

  it('answers null for a CUI in notFound', async () => {
    expect(await quick().lookup(String(UNKNOWN))).toBeNull();
    expect(fake.calls).toHaveLength(1);
  });

  it('keeps found and not-found answers: a second lookup makes no call until the answer expires', async () => {
    let clock = 1_000_000;
    const client = quick({ now: () => clock, foundTtlMs: 60_000, notFoundTtlMs: 10_000 });
    const first = await client.lookup(String(PFA));
    expect(await client.lookup(String(PFA))).toEqual(first);
    expect(await client.lookup(String(UNKNOWN))).toBeNull();
    expect(await client.lookup(String(UNKNOWN))).toBeNull();
    expect(fake.callsFor(PFA)).toHaveLength(1);
    expect(fake.callsFor(UNKNOWN)).toHaveLength(1);

    // A caller changing what it got does not change what is kept.
    first!.name = 'ALTCINEVA';
    expect((await client.lookup(String(PFA)))?.name).toBe('POPESCU ION PERSOANĂ FIZICĂ AUTORIZATĂ');

    clock += 10_001; // not-found expired, found still kept
    expect(await client.lookup(String(UNKNOWN))).toBeNull();
    expect(await client.lookup(String(PFA))).not.toBeNull();
    expect(fake.callsFor(UNKNOWN)).toHaveLength(2);
    expect(fake.callsFor(PFA)).toHaveLength(1);

    clock += 60_000; // found expired too
    await client.lookup(String(PFA));
    expect(fake.callsFor(PFA)).toHaveLength(2);
  });

  it('sends at most one request per second: two lookups arrive at least ~1 s apart', async () => {
    const client = new AnafCompanyLookup({ baseUrl: fake.url });
    const [a, b] = await Promise.all([client.lookup(String(PFA)), client.lookup(String(OTHER_PFA))]);
    expect(a?.name).toBe('POPESCU ION PERSOANĂ FIZICĂ AUTORIZATĂ');
    expect(b?.name).toBe('IONESCU MARIA-ELENA PFA');
    // One after the other too: the third call waits for its turn after the second.
    await client.lookup(String(UNKNOWN));
    expect(fake.calls).toHaveLength(3);
    const times = fake.calls.map((c) => c.receivedAt);
    expect(times[1] - times[0]).toBeGreaterThanOrEqual(950);
    expect(times[2] - times[1]).toBeGreaterThanOrEqual(950);
  });

  it('shares one call between lookups of the same CUI at the same time', async () => {
    const client = new AnafCompanyLookup({ baseUrl: fake.url });
    const results = await Promise.all([client.lookup(String(PFA)), client.lookup(String(PFA)), client.lookup(String(PFA))]);
    expect(results.map((r) => r?.fiscal_code)).toEqual(['42157397', '42157397', '42157397']);
    expect(fake.calls).toHaveLength(1);
  });

  it('refuses at once a lookup that would wait too long for its turn', async () => {
    const client = new AnafCompanyLookup({ baseUrl: fake.url, minIntervalMs: 1000, maxQueueMs: 1500 });
    const results = await Promise.allSettled(['42157397', '46720190', '38176420', '37028469'].map((cui) => client.lookup(cui)));
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'rejected']);
    const refused = (results[2] as PromiseRejectedResult).reason;
    expect(refused).toBeInstanceOf(CompanyLookupUnavailableError);
    expect(refused.message).toBe(UNAVAILABLE);
    expect(fake.calls).toHaveLength(2);
  });

  it('a call that takes longer than the time limit fails as unavailable and is not kept', async () => {
    fake.delayMs = 600;
    const client = quick({ timeoutMs: 150 });
    const started = Date.now();
    const error = await client.lookup(String(PFA)).catch((e: unknown) => e);
    expect(Date.now() - started).toBeLessThan(550);
    expect(error).toBeInstanceOf(CompanyLookupUnavailableError);
    expect((error as Error).message).toBe(UNAVAILABLE);
    expect((error as CompanyLookupUnavailableError).detail).toMatch(/timeout|aborted/i);
    fake.delayMs = 0;
    expect((await client.lookup(String(PFA)))?.is_pfa).toBe(true);
    expect(fake.calls).toHaveLength(2);
  });

  it('a 5xx answer fails as unavailable and is not kept; the next lookup asks again', async () => {
    const client = quick();
    fake.failNext = 1;
    const error = await client.lookup(String(PFA)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CompanyLookupUnavailableError);
    expect((error as Error).message).toBe(UNAVAILABLE);
    expect((error as CompanyLookupUnavailableError).detail).toContain('HTTP 503');
    expect((await client.lookup(String(PFA)))?.name).toBe('POPESCU ION PERSOANĂ FIZICĂ AUTORIZATĂ');
    expect(fake.calls).toHaveLength(2);
  });

  it('an answer that is not JSON, or names neither found nor notFound, fails as unavailable', async () => {
    const client = quick();
    fake.garbageNext = 1;
    await expect(client.lookup(String(PFA))).rejects.toBeInstanceOf(CompanyLookupUnavailableError);
    const nowhere = new AnafCompanyLookup({ baseUrl: 'http://127.0.0.1:9', minIntervalMs: 0, timeoutMs: 2000 });
    await expect(nowhere.lookup(String(PFA))).rejects.toThrow(UNAVAILABLE);
  });
});

describe('legalFormOf', () => {
  it('reads ANAF’s forma_juridica when it has one', () => {
    expect(legalFormOf({ legalForm: 'SOCIETATE COMERCIALĂ CU RĂSPUNDERE LIMITATĂ', name: 'X' })).toBe('SRL');
    expect(legalFormOf({ legalForm: 'SOCIETATE CU RASPUNDERE LIMITATA', name: 'X' })).toBe('SRL');
    expect(legalFormOf({ legalForm: 'SOCIETATE COMERCIALĂ PE ACŢIUNI', name: 'X' })).toBe('SA');
    expect(legalFormOf({ legalForm: 'PERSOANA FIZICA AUTORIZATA', name: 'X' })).toBe('PFA');
    expect(legalFormOf({ legalForm: 'ÎNTREPRINDERE INDIVIDUALĂ', name: 'X' })).toBe('II');
    expect(legalFormOf({ legalForm: 'ASOCIAŢIE', name: 'X' })).toBe('ASOCIAŢIE');
  });

  it('else the end of the name', () => {
    expect(legalFormOf({ legalForm: '', name: 'POPESCU ION PERSOANĂ FIZICĂ AUTORIZATĂ' })).toBe('PFA');
    expect(legalFormOf({ name: 'Stoica Mihai P.F.A.' })).toBe('PFA');
    expect(legalFormOf({ name: 'RUSU IOANA PFA' })).toBe('PFA');
    expect(legalFormOf({ name: 'POPA DAN ÎNTREPRINDERE INDIVIDUALĂ' })).toBe('II');
    expect(legalFormOf({ name: 'ALFA SOFT S.R.L.' })).toBe('SRL');
    expect(legalFormOf({ name: 'OMV PETROM S.A.' })).toBe('SA');
    expect(legalFormOf({ name: 'IONESCU ELENA-LUISA' })).toBeNull();
    expect(legalFormOf({ legalForm: null, name: 'CABINET MEDICAL DR. POP' })).toBeNull();
  });
});

const redisUp = await redisAvailable();

describe.skipIf(!redisUp)(`ANAF cache and pace shared through Redis by two instances${redisUp ? '' : ` (${REDIS_SKIP_REASON})`}`, () => {
  const fake = new FakeAnaf();
  const prefix = redisRunPrefix('anaf');
  const redis = new Redis(REDIS_URL);
  beforeAll(async () => {
    await fake.start();
    fake.add(anafPfa(PFA), anafPfa(OTHER_PFA, 'IONESCU MARIA-ELENA PFA'), anafSrl(SRL));
  });
  afterAll(async () => {
    await fake.stop();
    await deleteKeys(prefix);
    redis.disconnect();
  });
  beforeEach(() => {
    fake.calls.length = 0;
  });

  /** Two app instances' clients: separate processes' memory, one Redis. */
  const pair = (name: string, options: Partial<ConstructorParameters<typeof AnafCompanyLookup>[0]> = {}) =>
    [0, 1].map(() => new AnafCompanyLookup({ baseUrl: fake.url, shared: { redis, prefix: `${prefix}${name}:` }, ...options }));

  it('an answer fetched by A is served to B from Redis, not-found too, without a second call', async () => {
    const [a, b] = pair('cache', { minIntervalMs: 0 });
    expect((await a.lookup(String(PFA)))?.name).toBe('POPESCU ION PERSOANĂ FIZICĂ AUTORIZATĂ');
    expect(await a.lookup(String(UNKNOWN))).toBeNull();
    expect((await b.lookup(String(PFA)))?.name).toBe('POPESCU ION PERSOANĂ FIZICĂ AUTORIZATĂ');
    expect(await b.lookup(String(UNKNOWN))).toBeNull();
    expect(fake.calls).toHaveLength(2);
    // Kept with its time to live: a found company for a day, an unknown CUI for an hour.
    expect(await redis.pttl(`${prefix}cache:cui:${PFA}`)).toBeGreaterThan(23 * 3600 * 1000);
    expect(await redis.pttl(`${prefix}cache:cui:${UNKNOWN}`)).toBeLessThanOrEqual(3600 * 1000);
  });

  it('A and B together call ANAF at most once a second', async () => {
    const [a, b] = pair('pace');
    await Promise.all([a.lookup(String(PFA)), b.lookup(String(OTHER_PFA)), a.lookup(String(SRL)), b.lookup(String(UNKNOWN))]);
    expect(fake.calls).toHaveLength(4);
    const times = fake.calls.map((c) => c.receivedAt).sort((x, y) => x - y);
    for (let i = 1; i < times.length; i++) expect(times[i] - times[i - 1]).toBeGreaterThanOrEqual(950);
  });

  it('a lookup that would wait too long behind the other instance’s turns is refused at once', async () => {
    const [a, b] = pair('queue', { maxQueueMs: 1500 });
    const results = await Promise.allSettled([a.lookup(String(PFA)), b.lookup(String(OTHER_PFA)), a.lookup(String(SRL))]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected']);
    expect((results[2] as PromiseRejectedResult).reason.message).toBe(UNAVAILABLE);
    expect(fake.calls).toHaveLength(2);
  });

  it('Redis unreachable: the lookup fails as unavailable (never a 500)', async () => {
    const down = new Redis('redis://127.0.0.1:9', { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    down.on('error', () => undefined);
    const client = new AnafCompanyLookup({ baseUrl: fake.url, shared: { redis: down, prefix } });
    const error = await client.lookup(String(PFA)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CompanyLookupUnavailableError);
    expect((error as Error).message).toBe(UNAVAILABLE);
    expect(fake.calls).toHaveLength(0);
    down.disconnect();
  });
});
