/**
 * An environment with every real part production requires (server/config.ts PRODUCTION_REQUIRED).
 * The addresses are loopback ones nobody listens on: tests build the app with fakes for each part.
 */
export const PRODUCTION_ENV: NodeJS.ProcessEnv = {
  NODE_ENV: 'production',
  DATABASE_URL: 'postgres://ghiseu:parola@127.0.0.1:5432/ghiseu',
  REDIS_URL: 'redis://127.0.0.1:6379',
  S3_BUCKET: 'ghiseu-fisiere',
  S3_ENDPOINT: 'http://127.0.0.1:9000',
  S3_REGION: 'eu-central-1',
  S3_ACCESS_KEY_ID: 'ghiseu',
  S3_SECRET_ACCESS_KEY: 'ghiseu-secret-s3',
  S3_FORCE_PATH_STYLE: '1',
  SMTP_URL: 'smtp://127.0.0.1:2525',
  VERIFF_API_KEY: 'veriff-api-key',
  VERIFF_SHARED_SECRET: 'veriff-shared-secret',
  STRIPE_SECRET_KEY: 'sk_test_productie',
  STRIPE_WEBHOOK_SECRET: 'whsec_productie',
  ID_TOKEN_SECRET: 'id-token-secret-0123456789abcdef0123',
  OPS_TOKEN: 'ops-token-0123456789abcdef',
  PUBLIC_URL: 'https://ghiseu.example.ro',
  FILES_ENCRYPTION_KEY: 'k2026:dGhpcy1pcy1hLXRlc3Qta2V5LW9mLTMyLWJ5dGVzISE=',
};
