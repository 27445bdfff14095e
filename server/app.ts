import Fastify, { type FastifyError, type FastifyInstance, type FastifyServerOptions, type RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import fastifyCookie from '@fastify/cookie';
import fastifyMultipart from '@fastify/multipart';
import type { AppConfig } from './config';
import type { Database } from './db';
import { FieldValidationError, HttpError, fieldErrorsFromValidation } from './lib/http-errors';
import { DEFAULT_LANGUAGE, messages, pickLanguage, translate, translateFields, type Language } from './messages';
import { loggerOptions, requestId } from './lib/logging';
import { refuseControlCharacters } from './lib/input-limits';
import { checkAnswers } from './lib/answer-check';
import type { MailQueueOptions, MailTransport } from './mail/mailer';
import configPlugin from './plugins/config';
import redisPlugin from './plugins/redis';
import databasePlugin from './plugins/database';
import flowsPlugin from './plugins/flows';
import mailPlugin from './plugins/mail';
import storagePlugin from './plugins/storage';
import identityPlugin from './plugins/identity';
import paymentsPlugin from './plugins/payments';
import companyLookupPlugin from './plugins/company-lookup';
import limitsPlugin from './plugins/limits';
import readCachePlugin from './plugins/read-cache';
import retentionPlugin from './plugins/retention';
import docsPlugin from './plugins/docs';
import authPlugin from './plugins/auth';
import staffAuthPlugin from './plugins/staff-auth';
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
import legalRoutes from './routes/legal';
import officeServiceRoutes from './routes/office-services';
import publicRoutes from './routes/public';
import healthRoutes from './routes/health';
import registrationRoutes from './routes/registration';
import lostRoutes from './routes/lost';
import overviewRoutes from './routes/overview';
import documentRoutes from './routes/documents';
import statusRoutes from './routes/status';
import opsRoutes from './routes/ops';
import opsRetentionRoutes from './routes/ops-retention';
import staffRoutes from './routes/staff';
import staffDossierRoutes from './routes/staff-dossiers';
import staffPreviewRoutes from './routes/staff-preview';
import fileRoutes from './routes/files';
import identityRoutes from './routes/identity';
import userInfoRoutes from './routes/user-info';
import signatureRoutes from './routes/signature';
import mailingAddressRoutes from './routes/mailing-address';
import userExportRoutes from './routes/user-export';
import userPrivacyRoutes from './routes/user-privacy';
import type { FileStorage } from './storage/file-storage';
import type { IdentityProvider } from './identity/types';
import paymentRoutes from './routes/payment';
import type { PaymentProvider } from './payment/types';
import type { CompanyLookup } from './company/types';
import type { Flow } from '../src/core/flow';

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route the app registers, as registered (its schema included): the fuzz test walks them all. */
    registeredRoutes: RouteOptions[];
  }
  interface FastifyRequest {
    /** The language of this answer's texts, from `Accept-Language` (server/messages/). */
    language: Language;
  }
}

export interface BuildOptions {
  /** An already open database (tests share one per worker); closed by its owner, not by the app. */
  database?: Database;
  /** Delivers queued mails instead of SMTP_URL's nodemailer transport (a worker runs only with a transport). */
  mailTransport?: MailTransport;
  /** The mail worker's timings (tests make retries quick). */
  mailQueue?: MailQueueOptions;
  storage?: FileStorage;
  identity?: IdentityProvider;
  payments?: PaymentProvider;
  companies?: CompanyLookup;
  /** Prefix of this app's Redis keys (default `{PRODUCT_SLUG}:`); tests use one per run. */
  redisKeyPrefix?: string;
  /** The flow files to run instead of flows/*.json (tests: a reordered copy of a flow); checked like them. */
  flows?: Flow[];
  /** Log to this stream (tests read what would be logged); default stdout when `config.logger`. */
  logStream?: NodeJS.WritableStream;
  /** Tests: a JSON answer that its response schema would change is a 500 naming the field (server/lib/answer-check.ts). */
  checkAnswers?: boolean;
}

/** Romanian messages for the errors Fastify raises while reading a request (their own are English). */

function hopsTrusted(hops: number) {
  return (_address: string, hop: number) => hop < hops;
}

/** What the app plugin takes: the configuration, and fakes for the parts tests replace. */
export interface AppOptions extends Omit<BuildOptions, 'logStream'> {
  config: AppConfig;
}

/** Fastify's own options for this app (they are fixed when the instance is made, before any plugin). */
export function serverOptions(config: AppConfig, options: Pick<BuildOptions, 'logStream'> = {}): FastifyServerOptions {
  return {
    logger: config.logger || options.logStream ? loggerOptions(options.logStream) : false,
    // A number of hops is proxy-addr's "trust the n nearest": as a function, for Fastify's types.
    trustProxy: typeof config.trustProxy === 'number' ? hopsTrusted(config.trustProxy) : config.trustProxy,
    bodyLimit: 1024 * 1024,
    // The database plugin migrates and seeds at start (a fresh embedded database: several seconds,
    // more on a loaded machine): Fastify's default 10 s per plugin is too short for that.
    pluginTimeout: 120_000,
    // X-Request-Id taken when safe, else made (server/lib/logging.ts); echoed in every answer.
    requestIdHeader: false,
    genReqId: requestId,
    ajv: { customOptions: { allErrors: true, coerceTypes: 'array', useDefaults: true, removeAdditional: true } },
  };
}

/**
 * The whole HTTP application as one plugin: the capabilities (server/plugins/, each named with its
 * dependencies), the error envelope, then the routes. Not encapsulated, so `app.db`, `app.config`, …
 * are the instance's own.
 */
export const appPlugin = fp<AppOptions>(
  async (app, options) => {
    const { config } = options;
    const registeredRoutes: RouteOptions[] = [];
    app.decorate('registeredRoutes', registeredRoutes);
    app.addHook('onRoute', (route) => {
      registeredRoutes.push(route);
    });
    // Answers speak the request's language (Accept-Language; server/messages/): the error envelope,
    // the field messages and the message of a successful answer. Before
    // the answer check's hooks, so the check sees the translated answer.
    app.decorateRequest('language', DEFAULT_LANGUAGE);
    // Hooks of every request are callback-style (no promise and microtask each; issue 14's read path).
    app.addHook('onRequest', (request, _reply, done) => {
      request.language = pickLanguage(request.headers['accept-language']);
      done();
    });
    app.addHook('preSerialization', (request, _reply, payload: unknown, done) => {
      if (request.language === DEFAULT_LANGUAGE || !payload || typeof payload !== 'object' || !('message' in payload)) return done(null, payload);
      const { message } = payload as { message: unknown };
      done(null, typeof message === 'string' ? { ...payload, message: translate(request.language, message) } : payload);
    });

    // Before compression's onSend: the check reads the serialized text.
    if (options.checkAnswers) checkAnswers(app);

    await app.register(configPlugin, { config });
    await app.register(databasePlugin, { database: options.database });
    await app.register(flowsPlugin, { flows: options.flows });
    await app.register(redisPlugin, { keyPrefix: options.redisKeyPrefix });
    await app.register(mailPlugin, { transport: options.mailTransport, queue: options.mailQueue });
    await app.register(storagePlugin, { storage: options.storage });
    await app.register(identityPlugin, { identity: options.identity });
    await app.register(paymentsPlugin, { payments: options.payments });
    await app.register(companyLookupPlugin, { companies: options.companies });
    // Before compression's onSend: the cache keeps the serialized JSON text.
    await app.register(readCachePlugin);
    // The retention job's hourly check (RETENTION_JOB=0: off on this instance; issue 32).
    await app.register(retentionPlugin);

    registerSecurityHeaders(app, config);
    app.addHook('onRequest', (request, reply, done) => {
      reply.header('X-Request-Id', request.id);
      done();
    });

    app.setErrorHandler((error: FastifyError | FieldValidationError | HttpError, request, reply) => {
      const language = request.language ?? DEFAULT_LANGUAGE;
      const text = messages(language).envelope;
      if (error instanceof FieldValidationError) {
        const fields = error.issues ? fieldErrorsFromValidation({ validation: error.issues as never }, language) : translateFields(language, error.fields);
        return reply.code(422).send({ message: translate(language, error.message), payload: fields });
      }
      if (error instanceof HttpError) {
        if (error.statusCode >= 500) request.log.error({ err: error.cause ?? error }, error.message);
        if (error.statusCode === 429) reply.header('Retry-After', String((error.payload as { retry_after?: number })?.retry_after ?? 60));
        return reply.code(error.statusCode).send({ message: translate(language, error.message), payload: error.payload });
      }
      if ('validation' in error && error.validation) {
        return reply.code(422).send({ message: text.invalid, payload: fieldErrorsFromValidation(error, language) });
      }
      const status = 'statusCode' in error && error.statusCode && error.statusCode >= 400 ? error.statusCode : 500;
      if (status >= 500) request.log.error(error);
      return reply.code(status).send({
        message: status >= 500 ? text.generic : (text.request[status] ?? error.message),
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
    await app.register(staffAuthPlugin);
    // Per-address limits (login failures, registration, uploads, …): before the routes that use them.
    await app.register(limitsPlugin);
    // The OpenAPI document collects the routes registered after it.
    await app.register(docsPlugin);
    await app.register(publicRoutes, { prefix: '/api' });
    await app.register(healthRoutes, { prefix: '/api' });
    await app.register(accountRoutes, { prefix: '/api' });
    await app.register(passwordRoutes, { prefix: '/api' });
    await app.register(emailRoutes, { prefix: '/api' });
    await app.register(partnerRoutes, { prefix: '/api' });
    await app.register(userRoutes, { prefix: '/api' });
    await app.register(nomenclatureRoutes, { prefix: '/api' });
    await app.register(unsubscribeRoutes, { prefix: '/api' });
    await app.register(registrationRoutes, { prefix: '/api', registry: app.flows });
    await app.register(lostRoutes, { prefix: '/api', registry: app.flows });
    await app.register(officeServiceRoutes, { prefix: '/api' });
    await app.register(fileRoutes, { prefix: '/api' });
    await app.register(identityRoutes, { prefix: '/api' });
    await app.register(userInfoRoutes, { prefix: '/api' });
    await app.register(signatureRoutes, { prefix: '/api' });
    await app.register(mailingAddressRoutes, { prefix: '/api' });
    await app.register(userExportRoutes, { prefix: '/api' });
    await app.register(userPrivacyRoutes, { prefix: '/api' });
    await app.register(overviewRoutes, { prefix: '/api' });
    await app.register(documentRoutes, { prefix: '/api' });
    await app.register(statusRoutes, { prefix: '/api' });
    await app.register(opsRoutes, { prefix: '/api' });
    await app.register(opsRetentionRoutes, { prefix: '/api' });
    await app.register(staffRoutes, { prefix: '/api' });
    await app.register(staffDossierRoutes, { prefix: '/api' });
    await app.register(staffPreviewRoutes, { prefix: '/api', guard: app.staffOnly('editor') });
    await app.register(paymentRoutes, { prefix: '/api' });
    await app.register(devRoutes);
    await app.register(ssoRoutes);
    await app.register(legalRoutes);

    await app.register(staticAssets);
  },
  {
    name: 'app',
    fastify: '5.x',
  },
);

/** A Fastify instance running the app plugin; `server.ts` only starts it, tests pass fakes in `options`. */
export async function buildApp(config: AppConfig, options: BuildOptions = {}): Promise<FastifyInstance> {
  const { logStream, ...parts } = options;
  const app = Fastify(serverOptions(config, { logStream }));
  await app.register(appPlugin, { config, ...parts });
  return app;
}
