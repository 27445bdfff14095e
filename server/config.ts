import path from 'node:path';
import { list, parseEnv } from './config/parse';
import { BRAND } from './config/variables';

// Each variable is declared once, in server/config/variables.ts (type, bounds, default, description:
// docs/configuration.md is generated from it). This file computes the server's settings from them.
export { ConfigError, parseEnv } from './config/parse';
export { ENV_SCHEMA, PRODUCTION_REQUIRED, type Settings } from './config/schema';
export { BRAND, type BrandDefaults } from './config/variables';

/** TRUST_PROXY: unset or false, true, a number of proxy hops, or a comma list of proxy addresses/CIDRs. */
function trustProxy(value: string | undefined): boolean | number | string[] {
  const choice = (value ?? '').trim();
  if (!choice || choice === '0' || choice.toLowerCase() === 'false') return false;
  if (choice.toLowerCase() === 'true') return true;
  if (/^\d+$/.test(choice)) return Number(choice);
  return choice.split(',').map((s) => s.trim()).filter(Boolean);
}

const withoutSlash = (value: string) => value.replace(/\/+$/, '');
/** A folder variable, resolved; null when unset. */
const folder = (value: string | undefined) => (value ? path.resolve(value) : null);

/**
 * Every setting of the server, read once from the environment (docs/configuration.md describes each
 * variable). Unset texts are null; the values below that are not a variable's own are computed here.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env) {
  const e = parseEnv(env);
  const production = e.NODE_ENV === 'production';
  const publicUrl = withoutSlash(e.PUBLIC_URL ?? `http://localhost:${e.PORT}`);
  return {
    production,
    port: e.PORT,
    host: e.HOST ?? (production ? '0.0.0.0' : 'localhost'),
    trustProxy: trustProxy(e.TRUST_PROXY),
    // DATA_DIR set but empty: the current folder, as before the schema (path.resolve('')).
    dataDir: env.DATA_DIR !== undefined ? (e.DATA_DIR ?? '') : path.resolve('data'),
    databaseUrl: e.DATABASE_URL ?? null,
    publicUrl,
    /** PUBLIC_URL was set: unset, links handed back to the same browser follow the request's origin; mails never do. */
    publicUrlSet: e.PUBLIC_URL !== undefined,
    productName: e.PRODUCT_NAME,
    productSlug: e.PRODUCT_SLUG,
    smtpUrl: e.SMTP_URL ?? null,
    mailFrom: e.MAIL_FROM,
    dashboardUrl: withoutSlash(e.DASHBOARD_URL ?? publicUrl),
    supportWidgetUrl: e.SUPPORT_WIDGET_URL ?? null,
    // The brand (issue 17): content/brand.json's defaults, each overridable by its variable.
    siteUrl: e.MAIN_SITE_URL ?? BRAND.site_url,
    contactEmail: e.CONTACT_EMAIL ?? BRAND.contact_email,
    contactPhone: e.CONTACT_PHONE ?? BRAND.contact_phone,
    logoUrl: e.LOGO_URL ?? BRAND.logo_url,
    termsUrl: e.TERMS_URL ?? BRAND.terms_url,
    privacyUrl: e.PRIVACY_URL ?? BRAND.privacy_url,
    authCallbackOrigins: list(e.AUTH_CALLBACK_ORIGINS).map((s) => new URL(s).origin),
    serveStatic: e.SERVE_STATIC !== '0',
    staticDir: path.resolve(e.STATIC_DIR),
    previewFlowsDir: folder(e.PREVIEW_FLOWS_DIR),
    previewSchemasDir: folder(e.PREVIEW_SCHEMAS_DIR),
    logger: e.LOG !== '0' && e.NODE_ENV !== 'test',
    loginMaxAttempts: e.LOGIN_MAX_ATTEMPTS,
    loginWindowMs: e.LOGIN_WINDOW_MS,
    loginAddressMaxFailures: e.LOGIN_ADDRESS_MAX_FAILURES,
    /** Per-address hourly limits (server/lib/rate-limits.ts): 429 + Retry-After beyond. */
    rateLimits: {
      register: e.REGISTER_LIMIT_PER_HOUR,
      forgotPassword: e.FORGOT_PASSWORD_LIMIT_PER_HOUR,
      identitySession: e.IDENTITY_SESSION_LIMIT_PER_HOUR,
      upload: e.UPLOAD_LIMIT_PER_HOUR,
      companyLookup: e.COMPANY_LOOKUP_LIMIT_PER_HOUR,
    },
    accessTokenTtlDays: e.ACCESS_TOKEN_TTL_DAYS,
    accessTokenIdleMinutes: e.ACCESS_TOKEN_IDLE_MINUTES,
    readCacheEntries: e.READ_CACHE_ENTRIES,
    idTokenSecret: e.ID_TOKEN_SECRET ?? null,
    opsToken: e.OPS_TOKEN ?? null,
    veriffApiKey: e.VERIFF_API_KEY ?? null,
    veriffSharedSecret: e.VERIFF_SHARED_SECRET ?? null,
    veriffBaseUrl: withoutSlash(e.VERIFF_BASE_URL),
    idvSimulatorDelayMs: e.IDV_SIMULATOR_DELAY_MS,
    idvMaxUploadBytes: e.IDV_MAX_UPLOAD_BYTES,
    stripeSecretKey: e.STRIPE_SECRET_KEY ?? null,
    stripeWebhookSecret: e.STRIPE_WEBHOOK_SECRET ?? null,
    stripeApiUrl: e.STRIPE_API_URL ?? null,
    companyLookup: e.COMPANY_LOOKUP,
    anafApiUrl: withoutSlash(e.ANAF_API_URL),
    redisUrl: e.REDIS_URL ?? null,
    /** Uploaded files in an S3 bucket (S3_BUCKET set); null: on local disk under DATA_DIR/files (one machine). */
    s3: e.S3_BUCKET
      ? {
          bucket: e.S3_BUCKET,
          endpoint: e.S3_ENDPOINT ?? null,
          region: e.S3_REGION,
          accessKeyId: e.S3_ACCESS_KEY_ID ?? null,
          secretAccessKey: e.S3_SECRET_ACCESS_KEY ?? null,
          forcePathStyle: e.S3_FORCE_PATH_STYLE === '1' || e.S3_FORCE_PATH_STYLE === 'true',
        }
      : null,
    filesEncryptionKey: e.FILES_ENCRYPTION_KEY ?? null,
    filesEncryptionOldKeys: list(e.FILES_ENCRYPTION_OLD_KEYS),
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    /** How long personal data is kept (issue 32, server/privacy/retention.ts; the privacy page fills them in). */
    retention: {
      unfinishedDays: e.RETENTION_UNFINISHED_DAYS,
      warningDays: Math.min(e.RETENTION_WARNING_DAYS, e.RETENTION_UNFINISHED_DAYS - 1),
      idMediaDays: e.RETENTION_ID_MEDIA_DAYS,
      lostDays: e.RETENTION_LOST_DAYS,
      accountingYears: e.RETENTION_ACCOUNTING_YEARS,
      contractYears: e.RETENTION_CONTRACT_YEARS,
      scheduled: e.RETENTION_JOB !== '0',
    },
  };
}

/** Every setting of the server: its type follows from the schema and loadConfig, never written twice. */
export type AppConfig = ReturnType<typeof loadConfig>;
/** Per-address hourly limits (server/lib/rate-limits.ts). */
export type RateLimits = AppConfig['rateLimits'];
/** Retention periods (GDPR art. 5(1)(e)), each from its RETENTION_* variable. */
export type RetentionConfig = AppConfig['retention'];
/** S3 (or an S3-compatible server such as MinIO) holding uploaded files. */
export type S3Config = NonNullable<AppConfig['s3']>;
