import Fastify, { type FastifyError, type FastifyInstance } from 'fastify';
import fastifyCookie from '@fastify/cookie';
import fastifyMultipart from '@fastify/multipart';
import type { AppConfig } from './config';
import { openDatabase, type Database, type Db } from './db';
import { FieldValidationError, HttpError, fieldErrorsFromValidation } from './lib/http-errors';
import { AttemptLimiter } from './lib/attempt-limiter';
import { OutboxMailer, SmtpMailer, type Mailer } from './mail/mailer';
import authPlugin from './plugins/auth';
import { compression, staticAssets } from './plugins/static-assets';
import accountRoutes from './routes/accounts';
import passwordRoutes from './routes/password';
import emailRoutes from './routes/email';
import partnerRoutes from './routes/partners';
import userRoutes from './routes/user';
import nomenclatureRoutes from './routes/nomenclature';
import unsubscribeRoutes from './routes/unsubscribe';
import devRoutes from './routes/dev';
import ssoRoutes from './routes/sso';
import publicRoutes from './routes/public';
import registrationRoutes from './routes/registration';
import lostRoutes from './routes/lost';
import overviewRoutes from './routes/overview';
import documentRoutes from './routes/documents';
import statusRoutes from './routes/status';
import opsRoutes from './routes/ops';
import { loadFlowRegistry, type FlowRegistry } from './flows/registry';
import fileRoutes from './routes/files';
import identityRoutes from './routes/identity';
import userInfoRoutes from './routes/user-info';
import signatureRoutes from './routes/signature';
import mailingAddressRoutes from './routes/mailing-address';
import { createFileStorage, type FileStorage } from './storage/file-storage';
import { createIdentityProvider } from './identity/service';
import type { IdentityProvider } from './identity/types';
import paymentRoutes from './routes/payment';
import { createPaymentProvider } from './payment/service';
import type { PaymentProvider } from './payment/types';
import { createCompanyLookup } from './company/service';
import type { CompanyLookup } from './company/types';

declare module 'fastify' {
  interface FastifyInstance {
    config: AppConfig;
    db: Db;
    database: Database;
    mailer: Mailer;
    limits: { loginEmail: AttemptLimiter; loginAddress: AttemptLimiter; forgotEmail: AttemptLimiter };
    flows: FlowRegistry;
    /** Uploaded files' bytes (DATA_DIR/files, or memory for tests). */
    storage: FileStorage;
    /** The identity verification provider: Veriff when configured, else the built-in simulator. */
    identity: IdentityProvider;
    /** Card payments: Stripe Checkout when configured, else the built-in checkout page. */
    payments: PaymentProvider;
    /** Company lookup by fiscal code ("Am PFA" step 2): ANAF when `COMPANY_LOOKUP=anaf`, else the local registry. */
    companies: CompanyLookup;
  }
}

export interface BuildOptions {
  /** An already open database (tests share one per worker); closed by its owner, not by the app. */
  database?: Database;
  mailer?: Mailer;
  storage?: FileStorage;
  identity?: IdentityProvider;
  payments?: PaymentProvider;
  companies?: CompanyLookup;
}

/** Content-Security-Policy of every page: no inline or eval'd script (validators are precompiled). */
function contentSecurityPolicy(config: AppConfig): string {
  const widget = config.supportWidgetUrl ? ` ${new URL(config.supportWidgetUrl).origin}` : '';
  return [
    "default-src 'self'",
    `script-src 'self'${widget}`,
    // Chakra UI (emotion) injects <style> elements at run time.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    `connect-src 'self'${widget}`,
    `frame-src 'self'${widget}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

function hopsTrusted(hops: number) {
  return (_address: string, hop: number) => hop < hops;
}

/** The whole HTTP application as one Fastify instance; `server.ts` only listens. */
export async function buildApp(config: AppConfig, options: BuildOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: config.logger ? { level: 'info' } : false,
    // A number of hops is proxy-addr's "trust the n nearest": as a function, for Fastify's types.
    trustProxy: typeof config.trustProxy === 'number' ? hopsTrusted(config.trustProxy) : config.trustProxy,
    bodyLimit: 1024 * 1024,
    ajv: { customOptions: { allErrors: true, coerceTypes: 'array', useDefaults: true, removeAdditional: true } },
  });

  const database = options.database ?? (await openDatabase(config));
  if (!options.database) app.addHook('onClose', () => database.close());
  const flows = loadFlowRegistry();
  app.decorate('config', config);
  app.decorate('flows', flows);
  app.decorate('database', database);
  app.decorate('db', database.db);
  app.decorate('mailer', options.mailer ?? (config.smtpUrl ? new SmtpMailer(config.smtpUrl, config.mailFrom) : new OutboxMailer(database.db)));
  app.decorate('storage', options.storage ?? createFileStorage(config));
  app.decorate('identity', options.identity ?? createIdentityProvider(config, database.db));
  app.decorate('payments', options.payments ?? createPaymentProvider(config));
  app.decorate('companies', options.companies ?? createCompanyLookup(config, database.db));
  app.decorate('limits', {
    loginEmail: new AttemptLimiter(config.loginMaxAttempts, config.loginWindowMs),
    loginAddress: new AttemptLimiter(config.loginMaxAttempts * 5, config.loginWindowMs),
    forgotEmail: new AttemptLimiter(5, config.loginWindowMs),
  });

  const csp = contentSecurityPolicy(config);
  app.addHook('onSend', async (_request, reply) => {
    reply.header('X-Content-Type-Options', 'nosniff');
    reply.header('Referrer-Policy', 'strict-origin-when-cross-origin');
    reply.header('X-Frame-Options', 'DENY');
    if (String(reply.getHeader('content-type') ?? '').startsWith('text/html')) {
      reply.header('Content-Security-Policy', csp);
    }
  });

  app.setErrorHandler((error: FastifyError | FieldValidationError | HttpError, request, reply) => {
    if (error instanceof FieldValidationError) {
      return reply.code(422).send({ message: error.message, payload: error.fields });
    }
    if (error instanceof HttpError) {
      if (error.statusCode === 429) reply.header('Retry-After', String((error.payload as { retry_after?: number })?.retry_after ?? 60));
      return reply.code(error.statusCode).send({ message: error.message, payload: error.payload });
    }
    if ('validation' in error && error.validation) {
      return reply.code(422).send({ message: 'Datele trimise nu sunt valide.', payload: fieldErrorsFromValidation(error) });
    }
    const status = 'statusCode' in error && error.statusCode && error.statusCode >= 400 ? error.statusCode : 500;
    if (status >= 500) request.log.error(error);
    return reply.code(status).send({
      message: status >= 500 ? 'A apărut o eroare. Te rugăm să încerci din nou.' : error.message,
      payload: null,
    });
  });

  await app.register(fastifyCookie);
  await app.register(compression);
  // Multipart bodies are read by the routes that take files (server/lib/multipart.ts), with their own limits.
  await app.register(fastifyMultipart, { limits: { fileSize: config.idvMaxUploadBytes, files: 1, parts: 40 }, throwFileSizeLimit: true });
  await app.register(authPlugin);
  await app.register(publicRoutes, { prefix: '/api' });
  await app.register(accountRoutes, { prefix: '/api' });
  await app.register(passwordRoutes, { prefix: '/api' });
  await app.register(emailRoutes, { prefix: '/api' });
  await app.register(partnerRoutes, { prefix: '/api' });
  await app.register(userRoutes, { prefix: '/api' });
  await app.register(nomenclatureRoutes, { prefix: '/api' });
  await app.register(unsubscribeRoutes, { prefix: '/api' });
  await app.register(registrationRoutes, { prefix: '/api', registry: flows });
  await app.register(lostRoutes, { prefix: '/api', registry: flows });
  await app.register(fileRoutes, { prefix: '/api' });
  await app.register(identityRoutes, { prefix: '/api' });
  await app.register(userInfoRoutes, { prefix: '/api' });
  await app.register(signatureRoutes, { prefix: '/api' });
  await app.register(mailingAddressRoutes, { prefix: '/api' });
  await app.register(overviewRoutes, { prefix: '/api' });
  await app.register(documentRoutes, { prefix: '/api' });
  await app.register(statusRoutes, { prefix: '/api' });
  await app.register(opsRoutes, { prefix: '/api' });
  await app.register(paymentRoutes, { prefix: '/api' });
  await app.register(devRoutes);
  await app.register(ssoRoutes);

  await app.register(staticAssets);

  return app;
}
