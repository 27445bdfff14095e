import path from 'node:path';

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
  /** The product's main site and contact address, linked from the questionnaire info page. */
  siteUrl: string | null;
  contactEmail: string | null;
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
  /** S3 storage of files; `s3.bucket` unset: files in DATA_DIR/files (one machine). */
  s3: S3Config;
}

/** S3 (or an S3-compatible server such as MinIO) holding uploaded files. */
export interface S3Config {
  bucket: string | null;
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

function companyLookup(value: string | undefined): 'local' | 'anaf' {
  const choice = (value ?? '').trim().toLowerCase() || 'local';
  if (choice !== 'local' && choice !== 'anaf') throw new Error(`COMPANY_LOOKUP must be "local" or "anaf", not "${value}".`);
  return choice;
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
    .filter(Boolean)
    .map((s) => new URL(s).origin);
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const port = Number(env.PORT ?? 3000);
  const publicUrl = (env.PUBLIC_URL || `http://localhost:${port}`).replace(/\/+$/, '');
  const production = env.NODE_ENV === 'production';
  return {
    production,
    port,
    host: env.HOST || (production ? '0.0.0.0' : 'localhost'),
    trustProxy: trustProxy(env.TRUST_PROXY),
    dataDir: env.DATA_DIR ?? path.resolve('data'),
    databaseUrl: env.DATABASE_URL || null,
    publicUrl,
    publicUrlSet: !!env.PUBLIC_URL,
    productName: env.PRODUCT_NAME ?? 'Ghișeu',
    productSlug: env.PRODUCT_SLUG ?? 'ghiseu',
    smtpUrl: env.SMTP_URL || null,
    mailFrom: env.MAIL_FROM ?? 'Ghișeu <no-reply@ghiseu.local>',
    dashboardUrl: (env.DASHBOARD_URL || publicUrl).replace(/\/+$/, ''),
    supportWidgetUrl: env.SUPPORT_WIDGET_URL || null,
    siteUrl: env.MAIN_SITE_URL || null,
    contactEmail: env.CONTACT_EMAIL || null,
    authCallbackOrigins: list(env.AUTH_CALLBACK_ORIGINS),
    serveStatic: env.SERVE_STATIC !== '0',
    staticDir: path.resolve(env.STATIC_DIR ?? 'dist'),
    logger: env.LOG !== '0' && env.NODE_ENV !== 'test',
    loginMaxAttempts: Number(env.LOGIN_MAX_ATTEMPTS ?? 10),
    loginWindowMs: Number(env.LOGIN_WINDOW_MS ?? 15 * 60 * 1000),
    loginAddressMaxFailures: Number(env.LOGIN_ADDRESS_MAX_FAILURES ?? 50),
    rateLimits: {
      register: Number(env.REGISTER_LIMIT_PER_HOUR ?? 20),
      forgotPassword: Number(env.FORGOT_PASSWORD_LIMIT_PER_HOUR ?? 20),
      identitySession: Number(env.IDENTITY_SESSION_LIMIT_PER_HOUR ?? 30),
      upload: Number(env.UPLOAD_LIMIT_PER_HOUR ?? 300),
      companyLookup: Number(env.COMPANY_LOOKUP_LIMIT_PER_HOUR ?? 60),
    },
    accessTokenTtlDays: Number(env.ACCESS_TOKEN_TTL_DAYS ?? 30),
    accessTokenIdleMinutes: Number(env.ACCESS_TOKEN_IDLE_MINUTES ?? 120),
    idTokenSecret: env.ID_TOKEN_SECRET || null,
    opsToken: env.OPS_TOKEN || null,
    veriffApiKey: env.VERIFF_API_KEY || null,
    veriffSharedSecret: env.VERIFF_SHARED_SECRET || null,
    veriffBaseUrl: (env.VERIFF_BASE_URL || 'https://stationapi.veriff.com').replace(/\/+$/, ''),
    idvSimulatorDelayMs: Number(env.IDV_SIMULATOR_DELAY_MS ?? 3000),
    idvMaxUploadBytes: Number(env.IDV_MAX_UPLOAD_BYTES ?? 10 * 1024 * 1024),
    stripeSecretKey: env.STRIPE_SECRET_KEY || null,
    stripeWebhookSecret: env.STRIPE_WEBHOOK_SECRET || null,
    stripeApiUrl: env.STRIPE_API_URL || null,
    companyLookup: companyLookup(env.COMPANY_LOOKUP),
    anafApiUrl: (env.ANAF_API_URL || 'https://webservicesp.anaf.ro').replace(/\/+$/, ''),
    redisUrl: env.REDIS_URL || null,
    s3: {
      bucket: env.S3_BUCKET || null,
      endpoint: env.S3_ENDPOINT || null,
      region: env.S3_REGION || 'us-east-1',
      accessKeyId: env.S3_ACCESS_KEY_ID || null,
      secretAccessKey: env.S3_SECRET_ACCESS_KEY || null,
      forcePathStyle: env.S3_FORCE_PATH_STYLE === '1' || env.S3_FORCE_PATH_STYLE === 'true',
    },
  };
}
