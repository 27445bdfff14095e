import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { identitySessions, processedWebhooks } from '../db/schema';
import { HttpError, notFound } from '../lib/http-errors';
import { applyDecision } from './service';
import { decisionFromVeriff, signatureMatches, type VeriffVerification } from './veriff';

declare module 'fastify' {
  interface FastifyRequest {
    /** The raw body of Veriff's decision webhook: its signature is over these exact bytes (null on every other route). */
    veriffRawBody: Buffer | null;
  }
}

/**
 * Veriff's decision webhook (`POST /api/veriff/decision-webhook`, server/routes/identity.ts):
 * public, accepted only with our API key in X-AUTH-CLIENT and a valid X-HMAC-SIGNATURE over the raw
 * body; a body already processed changes nothing (replay). The route's scope registers
 * `readVeriffBody` as its JSON parser and calls the checks below as its hooks.
 */

/** The webhook scope's JSON parser: keeps the raw bytes on the request, then parses them (invalid JSON: 400). */
export function readVeriffBody(request: FastifyRequest, body: string | Buffer, done: (err: Error | null, body?: unknown) => void): void {
  const raw = body as Buffer;
  request.veriffRawBody = raw;
  try {
    done(null, raw.length ? JSON.parse(raw.toString('utf8')) : {});
  } catch {
    done(new HttpError(400, 'Corpul cererii nu este JSON valid.'), undefined);
  }
}

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** onRequest: without Veriff's key and secret configured the webhook does not exist (404). */
export function veriffConfigured(app: FastifyInstance) {
  return async () => {
    if (!app.config.veriffApiKey || !app.config.veriffSharedSecret) throw notFound();
  };
}

/** preValidation: our API key and a valid signature over the raw body, else 401. */
export function veriffSigned(app: FastifyInstance) {
  return async (request: FastifyRequest) => {
    const raw = request.veriffRawBody;
    const client = header(request, 'x-auth-client') ?? header(request, 'vrf-auth-client');
    const signature = header(request, 'x-hmac-signature') ?? header(request, 'vrf-hmac-signature');
    if (!raw || client !== app.config.veriffApiKey || !signatureMatches(signature, raw, app.config.veriffSharedSecret!)) {
      throw new HttpError(401, 'Semnătura cererii nu este validă.');
    }
  };
}

/** Applies a signed decision to its session (a Veriff session of ours), once per body; the answer's message. */
export async function handleVeriffDecision(app: FastifyInstance, raw: Buffer, verification: VeriffVerification): Promise<string> {
  const digest = createHash('sha256').update(raw).digest('hex');
  const [seen] = await app.db.select().from(processedWebhooks).where(eq(processedWebhooks.digest, digest));
  if (seen) return 'Notificarea a fost deja procesată.';
  const [session] = await app.db.select().from(identitySessions).where(eq(identitySessions.sessionId, verification.id));
  const decision = decisionFromVeriff(verification);
  if (session && session.provider === 'veriff' && decision) await applyDecision(app, session, decision);
  await app.db.insert(processedWebhooks).values({ digest, provider: 'veriff' }).onConflictDoNothing();
  return 'OK';
}
