import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { ErrorObject } from 'ajv';
import envSchema from 'env-schema';

/** Every setting of the server, read once from the environment (README "Configuration"). */
export interface AppConfig {
  /** NODE_ENV=production: no development-only routes (outbox, simulated payment). */
  production: boolean;
  port: number;
  /** Listen address: `localhost` in development (nobody else on the network reaches it), 0.0.0.0 in production. */
  host: string;
  /**
   * Which proxies may name the client in X-Forwarded-For (Fastify's trustProxy): false (default)
   * uses the socket's address, so nobody can dodge the per-address login limit with a header.
   */
  trustProxy: boolean | number | string[];
  /** Folder of the embedded database and stored files; ':memory:' keeps the database in memory (tests). */
  dataDir: string;
  /** postgres://… switches from the embedded PGlite to a real PostgreSQL. */
  databaseUrl: string | null;
  /** Origin used in links inside mails (reset, verification, auto-login). */
  publicUrl: string;
  /**
   * PUBLIC_URL was set. Unset (development), links handed back to the same browser (the built-in
   * checkout and its return, the QR hand-over) follow the request's origin; mails never do.
   */
  publicUrlSet: boolean;
  productName: string;
  productSlug: string;
  /** smtp://user:pass@host:port — when unset, mails stay in the database outbox (/dev/outbox). */
  smtpUrl: string | null;
  mailFrom: string;
  /** Dashboard application; `{dashboardUrl}/sso/{token}` is the hand-over. Default: this server's built-in page. */
  dashboardUrl: string;
  supportWidgetUrl: string | null;
  /**
   * The brand (issue 17): content/brand.json's defaults, each overridable by its variable. The main
   * site and contact (questionnaire info page, footer), the logo, the terms and privacy pages
   * (`/termeni`, `/confidentialitate` by default: content/legal/*.md rendered by this server).
   */
  siteUrl: string;
  contactEmail: string;
  contactPhone: string | null;
  logoUrl: string;
  termsUrl: string;
  privacyUrl: string;
  /** Origins `/auth?callbackUrl=` may send tokens to. */
  authCallbackOrigins: string[];
  /** Serve the built browser app from `staticDir`. */
  serveStatic: boolean;
  staticDir: string;
  logger: boolean;
  /** Failed logins per e-mail in `loginWindowMs` before that e-mail is locked (a password reset unlocks it). */
  loginMaxAttempts: number;
  loginWindowMs: number;
  /** Failed logins per client address in `loginWindowMs` (successful logins are not counted). */
  loginAddressMaxFailures: number;
  /**
   * Requests per client address per hour (429 + Retry-After beyond): registrations, forgot-password
   * mails, identity sessions created, uploads (identity photos, documents, signature), company lookups.
   */
  rateLimits: RateLimits;
  /** Access tokens expire this many days after they were issued. */
  accessTokenTtlDays: number;
  /** An access token unused for longer than this many minutes answers 401 (idle expiry). */
  accessTokenIdleMinutes: number;
  /** Answers of `GET …/open` kept in memory (server/registration/read-cache.ts); 0 turns the cache off. */
  readCacheEntries: number;
  /** HMAC key of the id_token handed to other applications by /auth; default: a key kept in DATA_DIR. */
  idTokenSecret: string | null;
  /** Bearer token of the operator API (`/api/ops/…`, `npm run ops`); default: a token kept in DATA_DIR/ops-token. */
  opsToken: string | null;
  /** Veriff integration (X-AUTH-CLIENT); when unset the built-in identity simulator is used. */
  veriffApiKey: string | null;
  /** Veriff shared secret key: X-HMAC-SIGNATURE of requests and of the decision webhook. */
  veriffSharedSecret: string | null;
  veriffBaseUrl: string;
  /** The simulator decides this long after a session is submitted (when its status is next asked). */
  idvSimulatorDelayMs: number;
  /** Largest identity photo accepted by POST /api/veriff/upload-image, in bytes. */
  idvMaxUploadBytes: number;
  /** Stripe secret key: set, payments go through Stripe Checkout; unset, the built-in checkout page. */
  stripeSecretKey: string | null;
  /** Signing secret of the Stripe webhook endpoint (whsec_…); required with the secret key. */
  stripeWebhookSecret: string | null;
  /** Another Stripe API address (a local stripe-mock, tests); default Stripe's own. */
  stripeApiUrl: string | null;
  /** Where "Am PFA" looks a fiscal code up: `local` (the seeded sample registry, default) or `anaf` (ANAF's web service). */
  companyLookup: 'local' | 'anaf';
  /** ANAF public web services base URL (`COMPANY_LOOKUP=anaf`); tests point it at a fake. */
  anafApiUrl: string;
  /** redis://… shared by every instance (rate limits, ANAF cache and pace); unset: in-memory (one process). */
  redisUrl: string | null;
  /** Uploaded files in an S3 bucket (`S3_BUCKET` set); null: on local disk under DATA_DIR/files (one machine). */
  s3: S3Config | null;
  /**
   * FILES_ENCRYPTION_KEY, `<key id>:<base64 of 32 bytes>`: the master key every stored file is
   * encrypted under (server/storage/encryption.ts). Null (development only): a key kept in
   * DATA_DIR/files-key, or a random key of the process for `DATA_DIR=:memory:`.
   */
  filesEncryptionKey: string | null;
  /** FILES_ENCRYPTION_OLD_KEYS: earlier master keys (same form), still read and rewrapped under the current key at start, never written. */
  filesEncryptionOldKeys: string[];
  /**
   * The folder the staff preview (`/api/staff/preview`) reads flow files from, at each call (so an
   * edit shows at the next reload); null: the repository's flows/. The wizards keep the files read at start.
   */
  previewFlowsDir: string | null;
  /** The folder of step schemas the staff preview reads at each call; null: the repository's schemas/. */
  previewSchemasDir: string | null;
  /** Graceful shutdown: in-flight requests get this long to finish before the process exits anyway. */
  shutdownTimeoutMs: number;
  /** How long personal data is kept (issue 32, server/privacy/retention.ts, docs: the privacy page fills them in). */
  retention: RetentionConfig;
}

/** Retention periods (GDPR art. 5(1)(e)), each from its RETENTION_* variable. */
export interface RetentionConfig {
  /** RETENTION_UNFINISHED_DAYS: an application the applicant has not touched for this long is erased with its account. */
  unfinishedDays: number;
  /** RETENTION_WARNING_DAYS: the warning mail goes this long before that erasure. */
  warningDays: number;
  /** RETENTION_ID_MEDIA_DAYS: identity photos and the selfie go this long after the dossier ends (finalized, rejected, handed over). */
  idMediaDays: number;
  /** RETENTION_LOST_DAYS: a lost application keeps only the e-mail after this long. */
  lostDays: number;
  /** RETENTION_ACCOUNTING_YEARS: payment records kept after an erasure (Romanian accounting law). */
  accountingYears: number;
  /** RETENTION_CONTRACT_YEARS: a signed legal-assistance contract kept after an erasure (limitation period of the contract). */
  contractYears: number;
  /** RETENTION_JOB=0 turns the scheduled run off on this instance (it still runs with `npm run ops -- retention`). */
  scheduled: boolean;
}

/** S3 (or an S3-compatible server such as MinIO) holding uploaded files. */
export interface S3Config {
  bucket: string;
  /** Another endpoint than AWS's (MinIO, s3rver in tests). */
  endpoint: string | null;
  region: string;
  accessKeyId: string | null;
  secretAccessKey: string | null;
  /** Path-style addressing (`endpoint/bucket/key`), needed by most S3-compatible servers. */
  forcePathStyle: boolean;
}

/** Per-address hourly limits (server/lib/rate-limits.ts). */
export interface RateLimits {
  register: number;
  forgotPassword: number;
  identitySession: number;
  upload: number;
  companyLookup: number;
}

/** Variables whose value is a secret: never repeated in an error message. */
const SECRETS = new Set(['ID_TOKEN_SECRET', 'OPS_TOKEN', 'VERIFF_API_KEY', 'VERIFF_SHARED_SECRET', 'STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET', 'S3_SECRET_ACCESS_KEY', 'SMTP_URL', 'DATABASE_URL', 'REDIS_URL']);

const count = (minimum: number, fallback: number) => ({ type: 'integer', minimum, default: fallback });
const text = { type: 'string' };
const httpUrl = { type: 'string', pattern: '^https?://' };
/** A master key of the file encryption: `<key id>:<base64 of 32 bytes>` (43 characters, `=` optional). */
const MASTER_KEY = '[A-Za-z0-9._-]{1,64}:[A-Za-z0-9+/_-]{42}[AEIMQUYcgkosw048]=?';
/** An http(s) address or a path of this server (`/termeni`). */
const pageUrl = { type: 'string', pattern: '^(https?://|/(?!/))' };

/** The brand's defaults, staff-edited (content/brand.json). */
export interface BrandDefaults {
  name: string;
  logo_url: string;
  contact_email: string;
  contact_phone: string | null;
  site_url: string;
  terms_url: string;
  privacy_url: string;
}
export const BRAND: BrandDefaults = JSON.parse(readFileSync(new URL('../content/brand.json', import.meta.url), 'utf8')) as BrandDefaults;

/**
 * Every variable the server reads (README "Configuration"), as a JSON Schema checked by env-schema
 * at start. Numbers are numbers (`PORT=abc`, an empty `LOGIN_MAX_ATTEMPTS`: refused, never NaN or
 * 0); an empty text variable counts as unset. `NODE_ENV=production` makes every real part required.
 */
export const ENV_SCHEMA = {
  type: 'object',
  properties: {
    NODE_ENV: text,
    PORT: { type: 'integer', minimum: 0, maximum: 65535, default: 3000 },
    HOST: text,
    TRUST_PROXY: text,
    DATA_DIR: text,
    DATABASE_URL: { type: 'string', pattern: '^postgres(ql)?://' },
    PUBLIC_URL: httpUrl,
    PRODUCT_NAME: { type: 'string', default: BRAND.name },
    PRODUCT_SLUG: { type: 'string', pattern: '^[a-z0-9-]+$', default: 'ghiseu' },
    SMTP_URL: { type: 'string', pattern: '^smtps?://' },
    MAIL_FROM: { type: 'string', default: 'Ghișeu <no-reply@ghiseu.local>' },
    DASHBOARD_URL: httpUrl,
    SUPPORT_WIDGET_URL: httpUrl,
    MAIN_SITE_URL: httpUrl,
    CONTACT_EMAIL: { type: 'string', pattern: '^[^@\\s]+@[^@\\s]+$' },
    CONTACT_PHONE: { type: 'string', pattern: '^\\+?[0-9 ().-]{6,20}$' },
    LOGO_URL: pageUrl,
    TERMS_URL: pageUrl,
    PRIVACY_URL: pageUrl,
    AUTH_CALLBACK_ORIGINS: text,
    SERVE_STATIC: text,
    STATIC_DIR: { type: 'string', default: 'dist' },
    PREVIEW_FLOWS_DIR: text,
    PREVIEW_SCHEMAS_DIR: text,
    LOG: text,
    LOGIN_MAX_ATTEMPTS: count(1, 10),
    LOGIN_WINDOW_MS: count(1, 15 * 60 * 1000),
    LOGIN_ADDRESS_MAX_FAILURES: count(1, 50),
    REGISTER_LIMIT_PER_HOUR: count(1, 20),
    FORGOT_PASSWORD_LIMIT_PER_HOUR: count(1, 20),
    IDENTITY_SESSION_LIMIT_PER_HOUR: count(1, 30),
    UPLOAD_LIMIT_PER_HOUR: count(1, 300),
    COMPANY_LOOKUP_LIMIT_PER_HOUR: count(1, 60),
    ACCESS_TOKEN_TTL_DAYS: count(1, 30),
    ACCESS_TOKEN_IDLE_MINUTES: count(1, 120),
    READ_CACHE_ENTRIES: count(0, 10_000),
    PASSWORD_HASH_THREADS: { type: 'integer', minimum: 1 },
    ID_TOKEN_SECRET: { type: 'string', minLength: 32 },
    OPS_TOKEN: { type: 'string', minLength: 16 },
    VERIFF_API_KEY: text,
    VERIFF_SHARED_SECRET: text,
    VERIFF_BASE_URL: httpUrl,
    IDV_SIMULATOR_DELAY_MS: count(0, 3000),
    IDV_MAX_UPLOAD_BYTES: count(1, 10 * 1024 * 1024),
    STRIPE_SECRET_KEY: text,
    STRIPE_WEBHOOK_SECRET: text,
    STRIPE_API_URL: httpUrl,
    COMPANY_LOOKUP: { type: 'string', enum: ['local', 'anaf'], default: 'local' },
    ANAF_API_URL: httpUrl,
    REDIS_URL: { type: 'string', pattern: '^rediss?://' },
    S3_BUCKET: { type: 'string', pattern: '^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$' },
    S3_ENDPOINT: httpUrl,
    S3_REGION: { type: 'string', default: 'us-east-1' },
    S3_ACCESS_KEY_ID: text,
    S3_SECRET_ACCESS_KEY: text,
    S3_FORCE_PATH_STYLE: { type: 'string', enum: ['0', '1', 'true', 'false'] },
    SHUTDOWN_TIMEOUT_MS: count(1, 10_000),
    RETENTION_UNFINISHED_DAYS: count(1, 180),
    RETENTION_WARNING_DAYS: count(0, 14),
    RETENTION_ID_MEDIA_DAYS: count(0, 30),
    RETENTION_LOST_DAYS: count(0, 30),
    RETENTION_ACCOUNTING_YEARS: count(1, 10),
    RETENTION_CONTRACT_YEARS: count(1, 3),
    RETENTION_JOB: { type: 'string', enum: ['0', '1'], default: '1' },
    FILES_ENCRYPTION_KEY: { type: 'string', pattern: `^${MASTER_KEY}$` },
    FILES_ENCRYPTION_OLD_KEYS: { type: 'string', pattern: `^${MASTER_KEY}(\\s*,\\s*${MASTER_KEY})*$` },
  },
  dependencies: {
    VERIFF_API_KEY: ['VERIFF_SHARED_SECRET'],
    STRIPE_SECRET_KEY: ['STRIPE_WEBHOOK_SECRET'],
    S3_BUCKET: ['S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'],
  },
  if: { properties: { NODE_ENV: { const: 'production' } }, required: ['NODE_ENV'] },
  then: { required: [] as string[] },
};

/**
 * What production needs (issue 16): every real part. Without one of them the server refuses to start
 * instead of silently using a development stand-in (PGlite, the outbox, the simulator, the built-in
 * checkout, a key kept in DATA_DIR).
 */
export const PRODUCTION_REQUIRED = [
  'DATABASE_URL',
  'REDIS_URL',
  'S3_BUCKET',
  'S3_ACCESS_KEY_ID',
  'S3_SECRET_ACCESS_KEY',
  'SMTP_URL',
  'VERIFF_API_KEY',
  'VERIFF_SHARED_SECRET',
  'STRIPE_SECRET_KEY',
  'STRIPE_WEBHOOK_SECRET',
  'ID_TOKEN_SECRET',
  'OPS_TOKEN',
  'PUBLIC_URL',
  'FILES_ENCRYPTION_KEY',
] as const;
ENV_SCHEMA.then.required = [...PRODUCTION_REQUIRED];

/** Variables holding one URL (checked to parse, beyond their scheme pattern). */
const URL_VARIABLES = ['DATABASE_URL', 'PUBLIC_URL', 'SMTP_URL', 'DASHBOARD_URL', 'SUPPORT_WIDGET_URL', 'MAIN_SITE_URL', 'VERIFF_BASE_URL', 'STRIPE_API_URL', 'ANAF_API_URL', 'REDIS_URL', 'S3_ENDPOINT'];

/** Every missing or malformed variable, in one message (Romanian / English), thrown by loadConfig. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(
      `Configurația nu este validă; serverul nu pornește. / The configuration is not valid; the server does not start.\n${problems.map((p) => `  - ${p}`).join('\n')}`,
    );
    this.name = 'ConfigError';
  }
}

function shown(name: string, value: unknown): string {
  return SECRETS.has(name) ? '' : ` („${String(value)}”)`;
}

function describe(error: ErrorObject, env: Record<string, unknown>): string {
  if (error.keyword === 'required') {
    const name = (error.params as { missingProperty: string }).missingProperty;
    return `${name}: lipsește, obligatorie cu NODE_ENV=production / missing, required with NODE_ENV=production`;
  }
  if (error.keyword === 'dependencies') {
    const { property, missingProperty } = error.params as { property: string; missingProperty: string };
    return `${missingProperty}: lipsește, obligatorie cu ${property} / missing, required with ${property}`;
  }
  const name = error.instancePath.replace(/^\//, '');
  const value = shown(name, env[name]);
  switch (error.keyword) {
    case 'type':
      return `${name}${value}: nu este un număr întreg / is not a whole number`;
    case 'minimum':
    case 'maximum':
      return `${name}${value}: trebuie să fie ${error.message?.replace('must be', '').trim()} / must be ${error.message?.replace('must be', '').trim()}`;
    case 'minLength': {
      const limit = (error.params as { limit: number }).limit;
      return `${name}: trebuie să aibă cel puțin ${limit} caractere / must have at least ${limit} characters`;
    }
    case 'enum': {
      const allowed = (error.params as { allowedValues: string[] }).allowedValues.map((v) => `"${v}"`).join(', ');
      return `${name}${value}: trebuie să fie unul dintre ${allowed} / must be one of ${allowed}`;
    }
    case 'pattern':
      return `${name}${value}: ${PATTERN_HINTS[name] ?? 'nu are forma cerută / is not in the expected form'}`;
    default:
      return `${name}: ${error.message ?? 'invalid'}`;
  }
}

const URL_HINT = 'nu este o adresă http(s):// validă / is not a valid http(s):// URL';
const PATTERN_HINTS: Record<string, string> = {
  DATABASE_URL: 'nu este o adresă postgres:// validă / is not a valid postgres:// URL',
  SMTP_URL: 'nu este o adresă smtp:// sau smtps:// validă / is not a valid smtp:// or smtps:// URL',
  REDIS_URL: 'nu este o adresă redis:// sau rediss:// validă / is not a valid redis:// or rediss:// URL',
  S3_BUCKET: 'nu este un nume de bucket S3 valid / is not a valid S3 bucket name',
  PRODUCT_SLUG: 'doar litere mici, cifre și cratimă / only lower-case letters, digits and hyphens',
  CONTACT_EMAIL: 'nu este o adresă de e-mail / is not an e-mail address',
  CONTACT_PHONE: 'nu este un număr de telefon / is not a phone number',
};
for (const name of ['FILES_ENCRYPTION_KEY', 'FILES_ENCRYPTION_OLD_KEYS']) {
  SECRETS.add(name);
  PATTERN_HINTS[name] = 'nu are forma <id>:<32 de octeți aleatori în base64> / is not <key id>:<base64 of 32 random bytes> (echo "k1:$(openssl rand -base64 32)")';
}
for (const name of ['LOGO_URL', 'TERMS_URL', 'PRIVACY_URL']) {
  PATTERN_HINTS[name] = 'nu este o adresă http(s):// sau o cale /… / is not an http(s):// URL or a /… path';
}
for (const name of ['PUBLIC_URL', 'DASHBOARD_URL', 'SUPPORT_WIDGET_URL', 'MAIN_SITE_URL', 'VERIFF_BASE_URL', 'STRIPE_API_URL', 'ANAF_API_URL', 'S3_ENDPOINT']) {
  PATTERN_HINTS[name] = URL_HINT;
}

/** TRUST_PROXY: unset or false, true, a number of proxy hops, or a comma list of proxy addresses/CIDRs. */
function trustProxy(value: string | undefined): boolean | number | string[] {
  const choice = (value ?? '').trim();
  if (!choice || choice === '0' || choice.toLowerCase() === 'false') return false;
  if (choice.toLowerCase() === 'true') return true;
  if (/^\d+$/.test(choice)) return Number(choice);
  return choice.split(',').map((s) => s.trim()).filter(Boolean);
}

function list(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

const NUMERIC = new Set(Object.entries(ENV_SCHEMA.properties).filter(([, p]) => p.type === 'integer').map(([name]) => name));

/** The values of the variables the schema knows: texts trimmed, empty texts unset (numbers keep '' so it is refused). */
function readable(env: NodeJS.ProcessEnv): Record<string, string> {
  const data: Record<string, string> = {};
  for (const name of Object.keys(ENV_SCHEMA.properties)) {
    const raw = env[name];
    if (raw === undefined) continue;
    const value = name === 'COMPANY_LOOKUP' ? raw.trim().toLowerCase() : NUMERIC.has(name) ? raw : raw.trim();
    if (value === '' && !NUMERIC.has(name)) continue;
    data[name] = value;
  }
  return data;
}

type Env = Record<string, string | number | undefined>;

/** The environment checked against ENV_SCHEMA: typed values and defaults, or a ConfigError listing every problem. */
export function parseEnv(env: NodeJS.ProcessEnv = process.env): Env {
  const data = readable(env);
  const problems: string[] = [];
  let parsed: Env = {};
  try {
    parsed = envSchema<Env>({ schema: structuredClone(ENV_SCHEMA), data, env: false });
  } catch (error) {
    const errors = (error as { errors?: ErrorObject[] }).errors;
    if (!errors) throw error;
    // A production `then` failing adds a summary error (keyword "if") after the missing ones.
    for (const e of errors) if (e.keyword !== 'if') problems.push(describe(e, data));
  }
  for (const name of URL_VARIABLES) {
    const value = data[name];
    if (value !== undefined && !URL.canParse(value) && !problems.some((p) => p.startsWith(`${name}`))) {
      problems.push(`${name}${shown(name, value)}: ${PATTERN_HINTS[name] ?? URL_HINT}`);
    }
  }
  for (const origin of list(data.AUTH_CALLBACK_ORIGINS)) {
    if (!/^https?:\/\//.test(origin) || !URL.canParse(origin)) problems.push(`AUTH_CALLBACK_ORIGINS („${origin}”): ${URL_HINT}`);
  }
  // One line per variable (a secret missing in production is also missing "with" its partner key).
  const byName = new Map<string, string>();
  for (const problem of problems) {
    const name = /^[A-Z0-9_]+/.exec(problem)?.[0] ?? problem;
    if (!byName.has(name)) byName.set(name, problem);
  }
  if (byName.size > 0) throw new ConfigError([...byName.values()]);
  return parsed;
}

const str = (value: string | number | undefined): string | null => (value === undefined ? null : String(value));
const num = (value: string | number | undefined): number => Number(value);
const withoutSlash = (value: string) => value.replace(/\/+$/, '');

export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const e = parseEnv(env);
  const port = num(e.PORT);
  const publicUrl = withoutSlash(str(e.PUBLIC_URL) ?? `http://localhost:${port}`);
  const production = e.NODE_ENV === 'production';
  return {
    production,
    port,
    host: str(e.HOST) ?? (production ? '0.0.0.0' : 'localhost'),
    trustProxy: trustProxy(str(e.TRUST_PROXY) ?? undefined),
    // DATA_DIR set but empty: the current folder, as before the schema (path.resolve('')).
    dataDir: env.DATA_DIR !== undefined ? (str(e.DATA_DIR) ?? '') : path.resolve('data'),
    databaseUrl: str(e.DATABASE_URL),
    publicUrl,
    publicUrlSet: e.PUBLIC_URL !== undefined,
    productName: String(e.PRODUCT_NAME),
    productSlug: String(e.PRODUCT_SLUG),
    smtpUrl: str(e.SMTP_URL),
    mailFrom: String(e.MAIL_FROM),
    dashboardUrl: withoutSlash(str(e.DASHBOARD_URL) ?? publicUrl),
    supportWidgetUrl: str(e.SUPPORT_WIDGET_URL),
    siteUrl: str(e.MAIN_SITE_URL) ?? BRAND.site_url,
    contactEmail: str(e.CONTACT_EMAIL) ?? BRAND.contact_email,
    contactPhone: str(e.CONTACT_PHONE) ?? BRAND.contact_phone,
    logoUrl: str(e.LOGO_URL) ?? BRAND.logo_url,
    termsUrl: str(e.TERMS_URL) ?? BRAND.terms_url,
    privacyUrl: str(e.PRIVACY_URL) ?? BRAND.privacy_url,
    authCallbackOrigins: list(str(e.AUTH_CALLBACK_ORIGINS) ?? undefined).map((s) => new URL(s).origin),
    serveStatic: e.SERVE_STATIC !== '0',
    staticDir: path.resolve(String(e.STATIC_DIR)),
    previewFlowsDir: str(e.PREVIEW_FLOWS_DIR) ? path.resolve(String(e.PREVIEW_FLOWS_DIR)) : null,
    previewSchemasDir: str(e.PREVIEW_SCHEMAS_DIR) ? path.resolve(String(e.PREVIEW_SCHEMAS_DIR)) : null,
    logger: e.LOG !== '0' && e.NODE_ENV !== 'test',
    loginMaxAttempts: num(e.LOGIN_MAX_ATTEMPTS),
    loginWindowMs: num(e.LOGIN_WINDOW_MS),
    loginAddressMaxFailures: num(e.LOGIN_ADDRESS_MAX_FAILURES),
    rateLimits: {
      register: num(e.REGISTER_LIMIT_PER_HOUR),
      forgotPassword: num(e.FORGOT_PASSWORD_LIMIT_PER_HOUR),
      identitySession: num(e.IDENTITY_SESSION_LIMIT_PER_HOUR),
      upload: num(e.UPLOAD_LIMIT_PER_HOUR),
      companyLookup: num(e.COMPANY_LOOKUP_LIMIT_PER_HOUR),
    },
    accessTokenTtlDays: num(e.ACCESS_TOKEN_TTL_DAYS),
    accessTokenIdleMinutes: num(e.ACCESS_TOKEN_IDLE_MINUTES),
    readCacheEntries: num(e.READ_CACHE_ENTRIES),
    idTokenSecret: str(e.ID_TOKEN_SECRET),
    opsToken: str(e.OPS_TOKEN),
    veriffApiKey: str(e.VERIFF_API_KEY),
    veriffSharedSecret: str(e.VERIFF_SHARED_SECRET),
    veriffBaseUrl: withoutSlash(str(e.VERIFF_BASE_URL) ?? 'https://stationapi.veriff.com'),
    idvSimulatorDelayMs: num(e.IDV_SIMULATOR_DELAY_MS),
    idvMaxUploadBytes: num(e.IDV_MAX_UPLOAD_BYTES),
    stripeSecretKey: str(e.STRIPE_SECRET_KEY),
    stripeWebhookSecret: str(e.STRIPE_WEBHOOK_SECRET),
    stripeApiUrl: str(e.STRIPE_API_URL),
    companyLookup: e.COMPANY_LOOKUP === 'anaf' ? 'anaf' : 'local',
    anafApiUrl: withoutSlash(str(e.ANAF_API_URL) ?? 'https://webservicesp.anaf.ro'),
    redisUrl: str(e.REDIS_URL),
    s3: str(e.S3_BUCKET)
      ? {
          bucket: String(e.S3_BUCKET),
          endpoint: str(e.S3_ENDPOINT),
          region: String(e.S3_REGION),
          accessKeyId: str(e.S3_ACCESS_KEY_ID),
          secretAccessKey: str(e.S3_SECRET_ACCESS_KEY),
          forcePathStyle: e.S3_FORCE_PATH_STYLE === '1' || e.S3_FORCE_PATH_STYLE === 'true',
        }
      : null,
    filesEncryptionKey: str(e.FILES_ENCRYPTION_KEY),
    filesEncryptionOldKeys: list(str(e.FILES_ENCRYPTION_OLD_KEYS) ?? undefined),
    shutdownTimeoutMs: num(e.SHUTDOWN_TIMEOUT_MS),
    retention: {
      unfinishedDays: num(e.RETENTION_UNFINISHED_DAYS),
      warningDays: Math.min(num(e.RETENTION_WARNING_DAYS), num(e.RETENTION_UNFINISHED_DAYS) - 1),
      idMediaDays: num(e.RETENTION_ID_MEDIA_DAYS),
      lostDays: num(e.RETENTION_LOST_DAYS),
      accountingYears: num(e.RETENTION_ACCOUNTING_YEARS),
      contractYears: num(e.RETENTION_CONTRACT_YEARS),
      scheduled: e.RETENTION_JOB !== '0',
    },
  };
}
