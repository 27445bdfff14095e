import { isDeepStrictEqual } from 'node:util';
import type { FastifyInstance } from 'fastify';

declare module 'fastify' {
  interface FastifyReply {
    /** Tests only (`checkAnswers`): the handler's answer as JSON.stringify writes it, for `onSend` to compare. */
    answerAsGiven: string | null;
  }
}

/**
 * Tests only (`checkAnswers` of buildApp: tests/server/helpers.ts and the e2e server): every JSON
 * answer must come out of Fastify's serializer as the handler gave it. fast-json-stringify writes
 * only what the route's `response` schema lists and coerces to its types, so a field the schema
 * forgets would silently vanish from the answer (and the browser would read `undefined`); here that
 * answer becomes a 500 naming the route and the field, so the test that made the call fails.
 */
export function checkAnswers(app: FastifyInstance): void {
  app.decorateReply('answerAsGiven', null);
  app.addHook('preSerialization', async (_request, reply, payload) => {
    // What JSON.stringify makes of the handler's object (Dates become strings, undefined fields go).
    reply.answerAsGiven = JSON.stringify(payload);
    return payload;
  });
  app.addHook('onSend', async (request, reply, payload) => {
    const before = reply.answerAsGiven;
    reply.answerAsGiven = null;
    if (before === null || typeof payload !== 'string') return payload;
    const expected = JSON.parse(before) as unknown;
    const written = JSON.parse(payload) as unknown;
    if (isDeepStrictEqual(expected, written)) return payload;
    const where = `${request.method} ${request.routeOptions.url ?? request.url} (${reply.statusCode})`;
    const message = `The answer of ${where} does not match its response schema: ${firstDifference(expected, written, 'answer')}`;
    console.error(message);
    throw new Error(message);
  });
}

/** The first place where the serialized answer differs from the handler's, in words. */
export function firstDifference(expected: unknown, written: unknown, path: string): string {
  if (isDeepStrictEqual(expected, written)) return 'none';
  if (expected && written && typeof expected === 'object' && typeof written === 'object' && Array.isArray(expected) === Array.isArray(written)) {
    const e = expected as Record<string, unknown>;
    const w = written as Record<string, unknown>;
    for (const key of Object.keys(e)) {
      if (!(key in w)) return `${path}.${key} is dropped (the schema does not list it)`;
      if (!isDeepStrictEqual(e[key], w[key])) return firstDifference(e[key], w[key], `${path}.${key}`);
    }
    const added = Object.keys(w).find((key) => !(key in e));
    if (added) return `${path}.${added} is added by the serializer`;
  }
  return `${path} is ${JSON.stringify(expected)?.slice(0, 200)} but is written as ${JSON.stringify(written)?.slice(0, 200)}`;
}
