import { readFileSync } from 'node:fs';

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
export const BRAND: BrandDefaults = JSON.parse(readFileSync(new URL('../../content/brand.json', import.meta.url), 'utf8')) as BrandDefaults;

/**
 * What the declaration of one variable may say: JSON Schema keywords (checked by env-schema), its
 * `description` (docs/configuration.md is generated from it: scripts/config-docs.ts), and keywords
 * of this project, removed before ajv compiles the schema:
 * - `x-secret`: the value is never repeated in an error message;
 * - `x-hint`: the error text (Romanian / English) when the value does not match `pattern`;
 * - `x-url`: one URL, checked to parse beyond its scheme pattern;
 * - `x-production`: required with NODE_ENV=production (a real part, see PRODUCTION_REQUIRED);
 * - `x-lowercase`: the value is read in lower case;
 * - `x-default`: the default as the documentation states it, when loadConfig computes it
 *   (the schema's `default` is shown otherwise).
 */
export interface Declaration {
  readonly type: 'string' | 'integer';
  readonly description: string;
  readonly default?: string | number;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly minLength?: number;
  readonly pattern?: string;
  readonly enum?: readonly string[];
  readonly 'x-secret'?: true;
  readonly 'x-hint'?: string;
  readonly 'x-url'?: true;
  readonly 'x-production'?: true;
  readonly 'x-lowercase'?: true;
  readonly 'x-default'?: string;
}

export const URL_HINT = 'nu este o adresă http(s):// validă / is not a valid http(s):// URL';
const count = (minimum: number, fallback: number) => ({ type: 'integer', minimum, default: fallback }) as const;
const text = { type: 'string' } as const;
const httpUrl = { type: 'string', pattern: '^https?://', 'x-url': true, 'x-hint': URL_HINT } as const;
/** An http(s) address or a path of this server (`/termeni`). */
const pageUrl = {
  type: 'string',
  pattern: '^(https?://|/(?!/))',
  'x-hint': 'nu este o adresă http(s):// sau o cale /… / is not an http(s):// URL or a /… path',
} as const;
/** A master key of the file encryption: `<key id>:<base64 of 32 bytes>` (43 characters, `=` optional). */
const MASTER_KEY = '[A-Za-z0-9._-]{1,64}:[A-Za-z0-9+/_-]{42}[AEIMQUYcgkosw048]=?';
const masterKeys = {
  type: 'string',
  'x-secret': true,
  'x-hint': 'nu are forma <id>:<32 de octeți aleatori în base64> / is not <key id>:<base64 of 32 random bytes> (echo "k1:$(openssl rand -base64 32)")',
} as const;
const secret = { type: 'string', 'x-secret': true } as const;
/** A real part: NODE_ENV=production refuses to start without it. */
const real = { 'x-production': true } as const;

/**
 * Every variable the server reads, declared once: type, bounds, default, documentation. Numbers are
 * numbers (`PORT=abc`, an empty `LOGIN_MAX_ATTEMPTS`: refused, never NaN or 0); an empty text
 * variable counts as unset.
 */
export const VARIABLES = {
  NODE_ENV: {
    ...text,
    description:
      '`production`: production mode: only real parts (every variable "required" in the production column must be set), and the development-only routes (outbox, simulated payment, built-in checkout, e2e routes) are not registered at all; `test`: no request log.',
  },
  PORT: { type: 'integer', minimum: 0, maximum: 65535, default: 3000, description: 'HTTP port (`0`: any free port).' },
  HOST: {
    ...text,
    'x-default': '`localhost`; `0.0.0.0` with `NODE_ENV=production`',
    description: 'Listen address: `localhost` in development (nobody else on the network reaches it), every address in production.',
  },
  TRUST_PROXY: {
    ...text,
    'x-default': 'false',
    description:
      "Which proxies may name the client in `X-Forwarded-For` (Fastify's `trustProxy`; the per-address limits follow it): `true`, a number of proxy hops, or a comma list of proxy addresses/CIDRs. Unset, `0` or `false`: the connection's own address, so nobody can dodge the per-address login limit with a header.",
  },
  DATA_DIR: {
    ...text,
    'x-default': '`./data`',
    description:
      'Folder of the embedded database (`pgdata/`), of the keys kept outside production and of the stored files; `:memory:` keeps the database and the files in memory (tests). Set but empty: the current folder.',
  },
  DATABASE_URL: {
    ...secret,
    ...real,
    pattern: '^postgres(ql)?://',
    'x-url': true,
    'x-hint': 'nu este o adresă postgres:// validă / is not a valid postgres:// URL',
    description: '`postgres://…`: PostgreSQL instead of the embedded PGlite (same migrations, applied at start).',
  },
  PUBLIC_URL: {
    ...httpUrl,
    ...real,
    'x-default': '`http://localhost:$PORT`',
    description:
      'Origin of the links inside mails (reset, verification, auto-login). Unset (development): mail links use the default, while links handed back to the same browser (the built-in checkout and its return, the QR hand-over) follow the origin the browser used (protocol and `Host`, or `X-Forwarded-Proto`/`-Host` from a proxy trusted by `TRUST_PROXY`). A trailing `/` is dropped.',
  },
  PRODUCT_NAME: {
    type: 'string',
    default: BRAND.name,
    'x-default': 'content/brand.json `name`',
    description: "The brand's name (`{product}` in the spec); the other brand values are below (MAIN_SITE_URL to PRIVACY_URL).",
  },
  PRODUCT_SLUG: {
    type: 'string',
    pattern: '^[a-z0-9-]+$',
    default: 'ghiseu',
    'x-hint': 'doar litere mici, cifre și cratimă / only lower-case letters, digits and hyphens',
    description: "The brand's short name: the prefix of the Redis keys (`ghiseu:`), the name of the personal-data export, `product_slug` of `/api/config`.",
  },
  SMTP_URL: {
    ...secret,
    ...real,
    pattern: '^smtps?://',
    'x-url': true,
    'x-hint': 'nu este o adresă smtp:// sau smtps:// validă / is not a valid smtp:// or smtps:// URL',
    description:
      '`smtp://user:pass@host:587`: the mail queue\'s worker sends with nodemailer (operations.md, "Mail queue"). Unset: mails stay in the database outbox (`/dev/outbox`).',
  },
  MAIL_FROM: { type: 'string', default: 'Ghișeu <no-reply@ghiseu.local>', description: 'Sender of the mails.' },
  DASHBOARD_URL: {
    ...httpUrl,
    'x-default': 'PUBLIC_URL (this server)',
    description: 'The dashboard application; `{DASHBOARD_URL}/sso/{token}` is the hand-over. Unset: a built-in `/sso/:token` page of this server shows who arrived.',
  },
  SUPPORT_WIDGET_URL: { ...httpUrl, description: 'Script of the support widget, loaded while signed in.' },
  MAIN_SITE_URL: {
    ...httpUrl,
    'x-default': 'content/brand.json `site_url`',
    description: 'The main site, in the footer and on the questionnaire info page (brand, issue 17).',
  },
  CONTACT_EMAIL: {
    type: 'string',
    pattern: '^[^@\\s]+@[^@\\s]+$',
    'x-hint': 'nu este o adresă de e-mail / is not an e-mail address',
    'x-default': 'content/brand.json `contact_email`',
    description: 'Contact address, in the footer and on the questionnaire info page.',
  },
  CONTACT_PHONE: {
    type: 'string',
    pattern: '^\\+?[0-9 ().-]{6,20}$',
    'x-hint': 'nu este un număr de telefon / is not a phone number',
    'x-default': 'content/brand.json `contact_phone` (null: no phone shown)',
    description: 'Contact phone, beside the contact address.',
  },
  LOGO_URL: {
    ...pageUrl,
    'x-default': 'content/brand.json `logo_url`',
    description: 'The logo beside the name in the headers: an http(s) address or a path of this server.',
  },
  TERMS_URL: {
    ...pageUrl,
    'x-default': 'content/brand.json `terms_url`',
    description:
      'Where the footer, the register checkbox, the signature consent and the identity step link the terms (`/termeni`: content/legal/*.md rendered by this server, which stays served).',
  },
  PRIVACY_URL: {
    ...pageUrl,
    'x-default': 'content/brand.json `privacy_url`',
    description: 'Where the same places link the privacy policy (`/confidentialitate`: rendered by this server, which stays served).',
  },
  AUTH_CALLBACK_ORIGINS: {
    ...text,
    description: 'Comma list of the origins `/auth?callbackUrl=` may send tokens to (any other: 422); each an http(s) address.',
  },
  SERVE_STATIC: { ...text, 'x-default': '1', description: '`0`: API only, the built browser app is not served (used by `npm run dev`).' },
  STATIC_DIR: { type: 'string', default: 'dist', description: 'Folder of the built browser app served with `SERVE_STATIC`.' },
  PREVIEW_FLOWS_DIR: {
    ...text,
    'x-default': '`flows/`',
    description:
      'The folder the staff preview (`/api/staff/preview`) reads flow files from, at each call, so an edit shows at the next reload (the e2e server points it at a copy its spec edits). The wizards keep the files read at start.',
  },
  PREVIEW_SCHEMAS_DIR: {
    ...text,
    'x-default': '`schemas/`',
    description: 'The folder of step schemas the staff preview reads and validates with, at each call (the API tests point it at an edited copy).',
  },
  LOG: { ...text, 'x-default': '1', description: '`0`: no request log (`NODE_ENV=test` logs nothing either). The log never holds tokens, links with tokens, passwords or CNPs.' },
  LOGIN_MAX_ATTEMPTS: {
    ...count(1, 10),
    description: 'Failed logins per e-mail in `LOGIN_WINDOW_MS` before that e-mail is locked for the window (a password reset lifts the lock).',
  },
  LOGIN_WINDOW_MS: { ...count(1, 15 * 60 * 1000), description: 'The window of the login limits, in milliseconds (15 minutes).' },
  LOGIN_ADDRESS_MAX_FAILURES: { ...count(1, 50), description: 'Failed logins per client address in `LOGIN_WINDOW_MS` (successful logins never count, so a whole office signs in).' },
  REGISTER_LIMIT_PER_HOUR: { ...count(1, 20), description: 'Registrations per client address per hour (beyond: 429 with `Retry-After`).' },
  FORGOT_PASSWORD_LIMIT_PER_HOUR: {
    ...count(1, 20),
    description: 'Forgot-password requests per client address per hour (plus 5 mails per e-mail per `LOGIN_WINDOW_MS`).',
  },
  IDENTITY_SESSION_LIMIT_PER_HOUR: { ...count(1, 30), description: 'Identity verification sessions created per client address per hour.' },
  UPLOAD_LIMIT_PER_HOUR: { ...count(1, 300), description: 'Uploads per client address per hour: identity photos, documents and signature together.' },
  COMPANY_LOOKUP_LIMIT_PER_HOUR: { ...count(1, 60), description: '"Am PFA" fiscal-code submissions (company lookups) per client address per hour.' },
  ACCESS_TOKEN_TTL_DAYS: { ...count(1, 30), description: 'Access tokens expire this many days after they were issued.' },
  ACCESS_TOKEN_IDLE_MINUTES: { ...count(1, 120), description: 'An access token unused for longer than this many minutes answers 401 (idle expiry).' },
  READ_CACHE_ENTRIES: {
    ...count(0, 10_000),
    description:
      'Answers of `GET …/open` kept in memory (server/registration/read-cache.ts), at most 30 s each, dropped by the database\'s notifications; `0` turns the cache off.',
  },
  PASSWORD_HASH_THREADS: {
    type: 'integer',
    minimum: 1,
    'x-default': 'CPUs − 1 (1 to 4)',
    description: 'Worker threads that hash passwords (scrypt; server/lib/hash-pool.ts reads it).',
  },
  ID_TOKEN_SECRET: {
    ...secret,
    ...real,
    minLength: 32,
    'x-default': 'a key kept in DATA_DIR (outside production)',
    description:
      'HMAC (HS256) key of the `id_token` handed to other applications by `/auth` (`sub`, `email`, `aud` = source, `iss` = PUBLIC_URL, 1 hour); the receiving application verifies it with the same secret.',
  },
  OPS_TOKEN: {
    ...secret,
    ...real,
    minLength: 16,
    'x-default': 'a token kept in DATA_DIR/ops-token (outside production)',
    description:
      'Bearer token of the operator API (`/api/ops/…`, `npm run ops`). Unset: a random token made at the first start and kept in `DATA_DIR/ops-token` (mode 0600); with `DATA_DIR=:memory:` the operator API is off (404).',
  },
  VERIFF_API_KEY: {
    ...secret,
    ...real,
    description: 'Veriff integration (`X-AUTH-CLIENT`). Set: identity verification goes to Veriff; unset: the built-in identity simulator is used.',
  },
  VERIFF_SHARED_SECRET: {
    ...secret,
    ...real,
    description:
      'Veriff shared secret key: `X-HMAC-SIGNATURE` (hex HMAC-SHA256) of every request and of the decision webhook `POST /api/veriff/decision-webhook`; required with VERIFF_API_KEY.',
  },
  VERIFF_BASE_URL: { ...httpUrl, default: 'https://stationapi.veriff.com', description: 'Veriff API base URL (the integration\'s "API URL").' },
  IDV_SIMULATOR_DELAY_MS: {
    ...count(0, 3000),
    description:
      'The simulator decides this long after a session is submitted (when its status is next asked): it approves with a generated Romanian person, and declines when an uploaded photo\'s file name contains `reject`.',
  },
  IDV_MAX_UPLOAD_BYTES: {
    ...count(1, 10 * 1024 * 1024),
    description: 'Largest identity photo accepted by `POST /api/veriff/upload-image`, in bytes (JPEG, PNG, WebP, HEIC/HEIF, checked by content).',
  },
  STRIPE_SECRET_KEY: {
    ...secret,
    ...real,
    description: 'Stripe secret key. Set: payments go through Stripe Checkout; unset: the built-in checkout page of this server (no card asked for, no money taken).',
  },
  STRIPE_WEBHOOK_SECRET: {
    ...secret,
    ...real,
    description: 'Signing secret (`whsec_…`) of the Stripe webhook endpoint `POST /api/stripe/webhook`; required with STRIPE_SECRET_KEY.',
  },
  STRIPE_API_URL: { ...httpUrl, 'x-default': "Stripe's own", description: 'Another Stripe API address (a local stripe-mock, the tests\' fake server).' },
  COMPANY_LOOKUP: {
    type: 'string',
    enum: ['local', 'anaf'],
    default: 'local',
    'x-lowercase': true,
    description:
      'Where "Am PFA" looks a fiscal code (CUI) up: `local`, the seeded sample registry (server/db/seed/companies.json); `anaf`, ANAF\'s public web service.',
  },
  ANAF_API_URL: { ...httpUrl, default: 'https://webservicesp.anaf.ro', description: 'ANAF public web services base URL, used with `COMPANY_LOOKUP=anaf` (the tests point it at a fake).' },
  REDIS_URL: {
    ...secret,
    ...real,
    pattern: '^rediss?://',
    'x-url': true,
    'x-hint': 'nu este o adresă redis:// sau rediss:// validă / is not a valid redis:// or rediss:// URL',
    description:
      '`redis://host:6379`, shared by every instance: the rate limits, the per-e-mail login and forgot counters, the ANAF cache and its pace (operations.md, "What Redis holds"). Unset: in this process\'s memory (one instance only).',
  },
  S3_BUCKET: {
    ...real,
    type: 'string',
    pattern: '^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$',
    'x-hint': 'nu este un nume de bucket S3 valid / is not a valid S3 bucket name',
    description:
      'Uploaded files in this S3 bucket (or an S3-compatible server such as MinIO) instead of `DATA_DIR/files` on one machine; the bucket stays private: files reach the browser only through `GET /api/files/:id` after the owner check.',
  },
  S3_ENDPOINT: { ...httpUrl, 'x-default': "AWS's", description: 'Address of an S3-compatible server (MinIO, s3rver in tests), e.g. `http://minio:9000`.' },
  S3_REGION: { type: 'string', default: 'us-east-1', description: "The bucket's region." },
  S3_ACCESS_KEY_ID: { ...text, ...real, description: "The bucket's access key id; required with S3_BUCKET." },
  S3_SECRET_ACCESS_KEY: { ...secret, ...real, description: "The bucket's secret access key; required with S3_BUCKET." },
  S3_FORCE_PATH_STYLE: {
    type: 'string',
    enum: ['0', '1', 'true', 'false'],
    'x-default': 'false',
    description: '`1`/`true`: path-style addressing (`endpoint/bucket/key`), which most S3-compatible servers need.',
  },
  SHUTDOWN_TIMEOUT_MS: {
    ...count(1, 10_000),
    description: 'Graceful shutdown: on SIGTERM/SIGINT the server stops accepting connections; the requests in flight get this long to finish before the process exits anyway.',
  },
  RETENTION_UNFINISHED_DAYS: {
    ...count(1, 180),
    description: 'An application the applicant has not touched (no sign-in, no use) for this many days is erased with its account by the retention job, after a warning mail (server/privacy/retention.ts).',
  },
  RETENTION_WARNING_DAYS: { ...count(0, 14), description: 'The warning mail goes this many days before that erasure (at most RETENTION_UNFINISHED_DAYS − 1).' },
  RETENTION_ID_MEDIA_DAYS: {
    ...count(0, 30),
    description:
      'Identity photos and the selfie are deleted this many days after the dossier ends (finalized, rejected, or handed over to the dashboard by "Am PFA"); the verification result and the data read from the card stay.',
  },
  RETENTION_LOST_DAYS: { ...count(0, 30), description: 'A lost application (questionnaire, office popup) keeps only the e-mail after this many days.' },
  RETENTION_ACCOUNTING_YEARS: {
    ...count(1, 10),
    description: "Payment records kept after an erasure, counted from the end of the payment's year (Romanian accounting law, Legea contabilității nr. 82/1991).",
  },
  RETENTION_CONTRACT_YEARS: { ...count(1, 3), description: 'A signed legal-assistance contract kept after an erasure (the general limitation period).' },
  RETENTION_JOB: {
    type: 'string',
    enum: ['0', '1'],
    default: '1',
    description: '`0`: this instance does not run the scheduled daily retention job (another one does, or `npm run ops -- retention`).',
  },
  FILES_ENCRYPTION_KEY: {
    ...masterKeys,
    ...real,
    pattern: `^${MASTER_KEY}$`,
    'x-default': 'a key kept in DATA_DIR/files-key (outside production)',
    description:
      'The master key every stored file is encrypted under, `<key id>:<base64 of 32 random bytes>` (e.g. `k2026:$(openssl rand -base64 32)`): each file (identity photos, documents, signatures, signed PDFs), on disk and in S3 alike, is AES-256-GCM under a data key of its own, wrapped by this key, whose id is in the file\'s header (server/storage/encryption.ts). Unset outside production: a key made at the first start and kept in `DATA_DIR/files-key` (deleting it makes the stored files unreadable), or a random key of the process with `DATA_DIR=:memory:`.',
  },
  FILES_ENCRYPTION_OLD_KEYS: {
    ...masterKeys,
    pattern: `^${MASTER_KEY}(\\s*,\\s*${MASTER_KEY})*$`,
    description:
      'Comma list of earlier master keys (same form), still read and rewrapped under the current key by the start-up job, never written. Rotation: set a new FILES_ENCRYPTION_KEY (new id), move the old one here, restart; remove it once the job (or `npm run ops -- files:reencrypt`) reports nothing left under it.',
  },
} as const satisfies Record<string, Declaration>;
