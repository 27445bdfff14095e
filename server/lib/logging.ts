import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyServerOptions } from 'fastify';

/**
 * What the server log must never hold (docs/architecture.md "Headers, personal data, logs"): tokens (Authorization, cookies, links
 * with a token in their path or query), passwords, CNPs. Fastify logs each request's method and
 * URL and every 5xx error; these options mask the URL, redact headers and body fields wherever
 * they appear, and strip the bound parameters and row details that database errors carry.
 */

const MASK = '[redactat]';

/** Path segments that follow these words are secrets: `/api/password/reset/:token`, `/sso/:token`, … */
const SECRET_AFTER = /(\/(?:verify|reset|sso|auto-login|verify-success|already-verified|checkout)\/)[^/?#]+/gi;
/** Query parameters that carry secrets: `/auto-login?token=…`, `/auth` callbacks, Veriff/Stripe ids. */
const SECRET_PARAMS = /([?&](?:token|access_token|id_token|session_id|custom_id|frontend_id|code|email|url|callbackUrl|redirect_url)=)[^&#]*/gi;
/** Any long opaque run (32+ characters of hex/base64url, also inside an encoded link) is treated as a token too. */
const LONG_RUN = /[A-Za-z0-9_-]{32,}/g;
/** A CNP (13 digits) anywhere in a text. */
const CNP = /(?<!\d)[1-9]\d{12}(?!\d)/g;

/** The bound values Drizzle writes into its error message (`Failed query: …\nparams: …`). */
const QUERY_PARAMS = /(\bparams: )[^\n]*/g;

/** Masks CNPs and a failed query's bound values in any text (error messages and stacks). */
export function scrubText(text: string): string {
  return text.replace(QUERY_PARAMS, `$1${MASK}`).replace(CNP, MASK);
}

/** A request URL fit for the log: secret path segments, secret query values and CNPs masked. */
export function maskUrl(url: string): string {
  return scrubText(url.replace(SECRET_AFTER, `$1${MASK}`).replace(SECRET_PARAMS, `$1${MASK}`).replace(LONG_RUN, MASK));
}

/**
 * An error for the log: only its kind, code, status, message and stack (CNPs masked), and the same
 * for its cause. Whatever else errors carry (a database error's bound values and row detail, an
 * HTTP client's request body) is left out.
 */
export function serializeError(error: unknown, depth = 0): unknown {
  if (!(error instanceof Error)) return typeof error === 'string' ? scrubText(error) : { type: typeof error };
  const { code, statusCode } = error as Error & { code?: unknown; statusCode?: unknown };
  return {
    type: error.constructor?.name ?? 'Error',
    message: scrubText(error.message),
    stack: error.stack ? scrubText(error.stack) : undefined,
    ...(typeof code === 'string' || typeof code === 'number' ? { code } : {}),
    ...(typeof statusCode === 'number' ? { statusCode } : {}),
    ...(error.cause !== undefined && depth < 5 ? { cause: serializeError(error.cause, depth + 1) } : {}),
  };
}

/** Paths pino replaces with the mask wherever a log line carries them. */
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-auth-client"]',
  'req.headers["x-hmac-signature"]',
  'req.headers["stripe-signature"]',
  'res.headers["set-cookie"]',
  'headers.authorization',
  'headers.cookie',
  'body',
  'req.body',
  '*.password',
  '*.password_confirmation',
  '*.new_password',
  '*.token',
  '*.access_token',
  '*.id_token',
  '*.cnp',
  '*.personal_code',
];

/** Fastify's logger options: info level, redaction, masked URLs; `stream` for tests (else stdout). */
export function loggerOptions(stream?: NodeJS.WritableStream): FastifyServerOptions['logger'] {
  return {
    level: 'info',
    ...(stream ? { stream } : {}),
    redact: { paths: REDACT_PATHS, censor: MASK },
    hooks: {
      // The message of a log line: pino copies an error's own message into it unless one is given.
      logMethod(args: unknown[], method: (...args: unknown[]) => void) {
        const [first, ...rest] = args;
        const texts = rest.map((item) => (typeof item === 'string' ? scrubText(item) : item));
        if (first instanceof Error && !texts.some((item) => typeof item === 'string')) texts.unshift(scrubText(first.message));
        method.apply(this, [typeof first === 'string' ? scrubText(first) : first, ...texts]);
      },
    },
    serializers: {
      req: (request: { method: string; url: string; hostname?: string; ip?: string; socket?: { remotePort?: number } }) => ({
        method: request.method,
        url: maskUrl(request.url),
        host: request.hostname,
        remoteAddress: request.ip,
        remotePort: request.socket?.remotePort,
      }),
      err: (error: Error) => serializeError(error) as { type: string; message: string; stack: string },
    },
  };
}

/** A request id a client or proxy may choose: short, and only characters safe in a log line and a header. */
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;

/**
 * The request's id (`reqId` in every log line of the request, `X-Request-Id` in the answer): the
 * `X-Request-Id` the proxy or client sent when it is short and safe, else a new UUID.
 */
export function requestId(request: IncomingMessage): string {
  const given = request.headers['x-request-id'];
  return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
}
