import Fastify, { type FastifyError, type FastifyInstance, type RouteOptions } from 'fastify';
import fastifyCookie from '@fastify/cookie';
import fastifyMultipart from '@fastify/multipart';
import type { AppConfig } from './config';
import { openDatabase, type Database, type Db } from './db';
import { FieldValidationError, HttpError, fieldErrorsFromValidation } from './lib/http-errors';
import { AttemptLimiter } from './lib/attempt-limiter';
import { registerAddressLimits } from './lib/rate-limits';
import { loggerOptions } from './lib/logging';
import { refuseControlCharacters } from './lib/input-limits';
import { OutboxMailer, SmtpMailer, type Mailer } from './mail/mailer';
import authPlugin from './plugins/auth';
import { registerSecurityHeaders } from './plugins/security-headers';
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
import type { Flow } from '../src/core/flow';
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
    limits: { loginEmail: AttemptLimiter; forgotEmail: AttemptLimiter };
    flows: FlowRegistry;
    /** Uploaded files' bytes (DATA_DIR/files, or memory for tests). */
    storage: FileStorage;
    /** The identity verification provider: Veriff when configured, else the built-in simulator. */
    identity: IdentityProvider;
    /** Card payments: Stripe Checkout when configured, else the built-in checkout page. */
    payments: PaymentProvider;
    /** Company lookup by fiscal code ("Am PFA" step 2): ANAF when `COMPANY_LOOKUP=anaf`, else the local registry. */
    companies: CompanyLookup;
    /** Every route the app registers, as registered (its schema included): the fuzz test walks them all. */
    registeredRoutes: RouteOptions[];
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
  /** The flow files to run instead of flows/*.json (tests: a reordered copy of a flow); checked like them. */
  flows?: Flow[];
  /** Log to this stream (tests read what would be logged); default stdout when `config.logger`. */
  logStream?: NodeJS.WritableStream;
}

/** Romanian messages for the errors Fastify raises while reading a request (their own are English). */
const REQUEST_ERRORS: Record<number, string> = {
  400: 'Cererea nu poate fi citită.',
  413: 'Datele trimise sunt prea mari.',
  415: 'Tipul datelor trimise nu este acceptat.',
};

function hopsTrusted(hops: number) {
  return (_address: string, hop: number) => hop < hops;
}

/** The whole HTTP application as one Fastify instance; `server.ts` only listens. */
export async function buildApp(config: AppConfig, options: BuildOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: config.logger || options.logStream ? loggerOptions(options.logStream) : false,
    // A number of hops is proxy-addr's "trust the n nearest": as a function, for Fastify's types.
    trustProxy: typeof config.trustProxy === 'number' ? hopsTrusted(config.trustProxy) : config.trustProxy,
    bodyLimit: 1024 * 1024,
    ajv: { customOptions: { allErrors: true, coerceTypes: 'array', useDefaults: true, removeAdditional: true } },
  });

  const registeredRoutes: RouteOptions[] = [];
  app.decorate('registeredRoutes', registeredRoutes);
  app.addHook('onRoute', (route) => {
    registeredRoutes.push(route);
  });

  const database = options.database ?? (await openDatabase(config));
  if (!options.database) app.addHook('onClose', () => database.close());
  const flows = loadFlowRegistry(options.flows);
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
    forgotEmail: new AttemptLimiter(5, config.loginWindowMs),
  });

  registerSecurityHeaders(app, config);

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
      message: status >= 500 ? 'A apărut o eroare. Te rugăm să încerci din nou.' : (REQUEST_ERRORS[status] ?? error.message),
      payload: null,
    });
  });

  // Every route: params, query and body hold no NUL or other control character (server/lib/input-limits.ts).
  app.addHook('preHandler', refuseControlCharacters);

  await app.register(fastifyCookie);
  await app.register(compression);
  // Multipart bodies are read by the routes that take files (server/lib/multipart.ts), with their own limits.
  await app.register(fastifyMultipart, { limits: { fileSize: config.idvMaxUploadBytes, files: 1, parts: 40 }, throwFileSizeLimit: true });
  await app.register(authPlugin);
  // Per-address limits (login failures, registration, uploads, …): before the routes that use them.
  await registerAddressLimits(app);
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
