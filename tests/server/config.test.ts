import { describe, expect, it } from 'vitest';
import { ConfigError, ENV_SCHEMA, loadConfig, PRODUCTION_REQUIRED } from '../../server/config';
import { PRODUCTION_ENV } from './production-env';

/** The message loadConfig refuses `env` with (every problem in one message), or null when it accepts it. */
function refusal(env: NodeJS.ProcessEnv): string | null {
  try {
    loadConfig(env);
    return null;
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
}

describe('loadConfig', () => {
  it('listens on this machine only in development, on every address in production, as HOST says when set', () => {
    expect(loadConfig({}).host).toBe('localhost');
    expect(loadConfig(PRODUCTION_ENV).host).toBe('0.0.0.0');
    expect(loadConfig({ HOST: '0.0.0.0' }).host).toBe('0.0.0.0');
    expect(loadConfig({ ...PRODUCTION_ENV, HOST: '10.1.2.3' }).host).toBe('10.1.2.3');
  });

  it('knows production by NODE_ENV', () => {
    expect(loadConfig({}).production).toBe(false);
    expect(loadConfig({ NODE_ENV: 'test' }).production).toBe(false);
    expect(loadConfig(PRODUCTION_ENV).production).toBe(true);
  });

  it('keeps every default of docs/configuration.md with nothing set (npm start stays as easy as before)', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      publicUrl: 'http://localhost:3000',
      publicUrlSet: false,
      databaseUrl: null,
      smtpUrl: null,
      productName: 'Ghișeu',
      productSlug: 'ghiseu',
      mailFrom: 'Ghișeu <no-reply@ghiseu.local>',
      dashboardUrl: 'http://localhost:3000',
      trustProxy: false,
      serveStatic: true,
      loginMaxAttempts: 10,
      loginWindowMs: 15 * 60 * 1000,
      loginAddressMaxFailures: 50,
      rateLimits: { register: 20, forgotPassword: 20, identitySession: 30, upload: 300, companyLookup: 60 },
      accessTokenTtlDays: 30,
      accessTokenIdleMinutes: 120,
      idTokenSecret: null,
      opsToken: null,
      veriffApiKey: null,
      veriffBaseUrl: 'https://stationapi.veriff.com',
      idvSimulatorDelayMs: 3000,
      idvMaxUploadBytes: 10 * 1024 * 1024,
      stripeSecretKey: null,
      companyLookup: 'local',
      anafApiUrl: 'https://webservicesp.anaf.ro',
      redisUrl: null,
      s3: null,
      retention: { unfinishedDays: 180, warningDays: 14, idMediaDays: 30, lostDays: 30, accountingYears: 10, contractYears: 3, scheduled: true },
      shutdownTimeoutMs: 10_000,
    });
  });

  it('takes the brand from content/brand.json, each value overridable by its variable (issue 17)', () => {
    expect(loadConfig({})).toMatchObject({
      siteUrl: 'https://ghiseu.ro',
      contactEmail: 'contact@ghiseu.ro',
      contactPhone: null,
      logoUrl: '/logo.svg',
      termsUrl: '/termeni',
      privacyUrl: '/confidentialitate',
    });
    const env = {
      PRODUCT_NAME: 'Contabil Rapid',
      MAIN_SITE_URL: 'https://contabil.example',
      CONTACT_EMAIL: 'ajutor@contabil.example',
      CONTACT_PHONE: '+40 21 123 4567',
      LOGO_URL: 'https://cdn.contabil.example/logo.svg',
      TERMS_URL: 'https://contabil.example/termeni',
      PRIVACY_URL: '/politica',
    };
    expect(loadConfig(env)).toMatchObject({
      productName: 'Contabil Rapid',
      siteUrl: 'https://contabil.example',
      contactEmail: 'ajutor@contabil.example',
      contactPhone: '+40 21 123 4567',
      logoUrl: 'https://cdn.contabil.example/logo.svg',
      termsUrl: 'https://contabil.example/termeni',
      privacyUrl: '/politica',
    });
    expect(refusal({ TERMS_URL: 'javascript:alert(1)' })).toMatch(/TERMS_URL .*nu este o adresă http\(s\):\/\/ sau o cale/);
    expect(refusal({ PRIVACY_URL: '//evil.example/p' })).toMatch(/PRIVACY_URL/);
    expect(refusal({ CONTACT_PHONE: '<script>' })).toMatch(/CONTACT_PHONE .*nu este un număr de telefon/);
  });

  it('reads numbers as numbers and treats an empty text variable as unset', () => {
    const config = loadConfig({ PORT: '8080', LOGIN_MAX_ATTEMPTS: '3', IDV_SIMULATOR_DELAY_MS: '0', DATABASE_URL: '', SMTP_URL: '', VERIFF_API_KEY: '' });
    expect(config).toMatchObject({ port: 8080, loginMaxAttempts: 3, idvSimulatorDelayMs: 0, databaseUrl: null, smtpUrl: null, veriffApiKey: null });
    expect(config.publicUrl).toBe('http://localhost:8080');
  });

  it('refuses a port that is not a number, naming the variable', () => {
    expect(refusal({ PORT: 'abc' })).toMatch(/PORT \(„abc”\): nu este un număr întreg \/ is not a whole number/);
    expect(refusal({ PORT: '70000' })).toMatch(/PORT/);
    expect(refusal({ PORT: '80.5' })).toMatch(/PORT/);
  });

  it('refuses an empty or zero limit instead of turning it into 0 or NaN', () => {
    expect(refusal({ LOGIN_MAX_ATTEMPTS: '' })).toMatch(/LOGIN_MAX_ATTEMPTS/);
    expect(refusal({ LOGIN_MAX_ATTEMPTS: '0' })).toMatch(/LOGIN_MAX_ATTEMPTS \(„0”\): trebuie să fie >= 1/);
    expect(refusal({ UPLOAD_LIMIT_PER_HOUR: 'many' })).toMatch(/UPLOAD_LIMIT_PER_HOUR/);
    expect(refusal({ ACCESS_TOKEN_TTL_DAYS: '-1' })).toMatch(/ACCESS_TOKEN_TTL_DAYS/);
  });

  it('refuses malformed URLs with the variable name', () => {
    expect(refusal({ PUBLIC_URL: 'localhost:3000' })).toMatch(/PUBLIC_URL .*nu este o adresă http\(s\):\/\/ validă \/ is not a valid http\(s\):\/\/ URL/);
    expect(refusal({ PUBLIC_URL: 'http://' })).toMatch(/PUBLIC_URL/);
    expect(refusal({ DATABASE_URL: 'mysql://db/app' })).toMatch(/DATABASE_URL: nu este o adresă postgres:\/\/ validă/);
    expect(refusal({ REDIS_URL: 'http://cache' })).toMatch(/REDIS_URL/);
    expect(refusal({ SMTP_URL: 'mail.example.ro:25' })).toMatch(/SMTP_URL/);
    expect(refusal({ AUTH_CALLBACK_ORIGINS: 'https://ok.ro, not a url' })).toMatch(/AUTH_CALLBACK_ORIGINS \(„not a url”\)/);
  });

  it('never repeats a secret in its message', () => {
    const message = refusal({ DATABASE_URL: 'mysql://root:s3cret-parola@db/app', OPS_TOKEN: 'scurt-secret' }) ?? '';
    expect(message).toMatch(/DATABASE_URL/);
    expect(message).toMatch(/OPS_TOKEN: trebuie să aibă cel puțin 16 caractere/);
    expect(message).not.toMatch(/s3cret-parola|scurt-secret/);
  });

  it('lists every problem in one message', () => {
    const message = refusal({ PORT: 'abc', LOGIN_MAX_ATTEMPTS: '', PUBLIC_URL: 'nope', COMPANY_LOOKUP: 'onrc' }) ?? '';
    expect(message.split('\n')[0]).toBe('Configurația nu este validă; serverul nu pornește. / The configuration is not valid; the server does not start.');
    for (const name of ['PORT', 'LOGIN_MAX_ATTEMPTS', 'PUBLIC_URL', 'COMPANY_LOOKUP']) expect(message).toMatch(new RegExp(`^  - ${name}\\b`, 'm'));
  });

  it('asks for the partner secret of Veriff, Stripe and S3 in development too', () => {
    expect(refusal({ VERIFF_API_KEY: 'k' })).toMatch(/VERIFF_SHARED_SECRET: lipsește, obligatorie cu VERIFF_API_KEY/);
    expect(refusal({ STRIPE_SECRET_KEY: 'sk_test_x' })).toMatch(/STRIPE_WEBHOOK_SECRET: lipsește, obligatorie cu STRIPE_SECRET_KEY/);
    expect(refusal({ S3_BUCKET: 'fisiere' })).toMatch(/S3_ACCESS_KEY_ID.*\n.*S3_SECRET_ACCESS_KEY/);
  });

  it('reads REDIS_URL and the S3 variables', () => {
    const config = loadConfig({
      REDIS_URL: 'redis://127.0.0.1:6379',
      S3_BUCKET: 'ghiseu-fisiere',
      S3_ENDPOINT: 'http://127.0.0.1:9000',
      S3_REGION: 'eu-central-1',
      S3_ACCESS_KEY_ID: 'cheie',
      S3_SECRET_ACCESS_KEY: 'secret',
      S3_FORCE_PATH_STYLE: '1',
    });
    expect(config.redisUrl).toBe('redis://127.0.0.1:6379');
    expect(config.s3).toEqual({ bucket: 'ghiseu-fisiere', endpoint: 'http://127.0.0.1:9000', region: 'eu-central-1', accessKeyId: 'cheie', secretAccessKey: 'secret', forcePathStyle: true });
  });
});

describe('production mode', () => {
  it('starts with every real part configured', () => {
    expect(refusal(PRODUCTION_ENV)).toBeNull();
  });

  it('with nothing configured, names every missing part in one message', () => {
    const message = refusal({ NODE_ENV: 'production' }) ?? '';
    for (const name of PRODUCTION_REQUIRED) expect(message).toMatch(new RegExp(`^  - ${name}: lipsește, obligatorie cu NODE_ENV=production / missing, required with NODE_ENV=production$`, 'm'));
  });

  it.each(PRODUCTION_REQUIRED)('refuses to start without %s', (name) => {
    const env = { ...PRODUCTION_ENV, [name]: '' };
    const message = refusal(env) ?? '';
    expect(message).toMatch(new RegExp(`^  - ${name}: lipsește`, 'm'));
    // Only that variable is named.
    expect(message.split('\n').filter((l) => l.startsWith('  - '))).toHaveLength(1);
  });

  it('takes its list from the declarations, and loading changes no exported constant', () => {
    const schema = JSON.stringify(ENV_SCHEMA);
    const required = [...PRODUCTION_REQUIRED];
    refusal({ NODE_ENV: 'production' });
    loadConfig(PRODUCTION_ENV);
    expect(JSON.stringify(ENV_SCHEMA)).toBe(schema);
    expect(ENV_SCHEMA.then.required).toEqual(required);
    expect(required).toEqual(Object.entries(ENV_SCHEMA.properties).flatMap(([name, d]) => ('x-production' in d ? [name] : [])));
    expect(new Set(required)).toEqual(
      new Set(['DATABASE_URL', 'REDIS_URL', 'S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY', 'SMTP_URL', 'VERIFF_API_KEY', 'VERIFF_SHARED_SECRET', 'STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET', 'ID_TOKEN_SECRET', 'OPS_TOKEN', 'PUBLIC_URL', 'FILES_ENCRYPTION_KEY']),
    );
  });

  it('refuses the embedded database, a short id-token key and a malformed Redis address', () => {
    const message = refusal({ ...PRODUCTION_ENV, DATABASE_URL: 'pglite://data', ID_TOKEN_SECRET: 'prea-scurt', REDIS_URL: 'localhost:6379' }) ?? '';
    expect(message).toMatch(/DATABASE_URL/);
    expect(message).toMatch(/ID_TOKEN_SECRET: trebuie să aibă cel puțin 32 caractere/);
    expect(message).toMatch(/REDIS_URL/);
  });
});
