import fp from 'fastify-plugin';
import type { FastifyReply } from 'fastify';
import { ReadCache, type CachedSession } from '../registration/read-cache';

declare module 'fastify' {
  interface FastifyInstance {
    /** The registration reads' cache (server/registration/read-cache.ts); null with READ_CACHE_ENTRIES=0. */
    readCache: ReadCache | null;
    /** Keeps this reply's answer in the read cache once serialized, if it is a 200 (its `onSend`). */
    keepAnswer: (reply: FastifyReply, key: string, started: number, session: CachedSession) => void;
  }
  interface FastifyReply {
    /** What `keepAnswer` asked to keep of this reply, for `onSend`. */
    readCacheKeep: { key: string; started: number; session: CachedSession } | null;
  }
}

/**
 * The read cache of the app: made from the database's change feed, and two things at `onSend`
 * (registered before compression, so the serialized JSON text is what it sees): the answer a route
 * asked to keep is kept; a call of a signed-in user that may write (any method but GET and HEAD)
 * drops that user's answers before its own answer leaves, so the user's next read is read again.
 */
export default fp(
  async (app) => {
    const cache = app.config.readCacheEntries > 0 ? new ReadCache(app.database.changes, app.config.readCacheEntries) : null;
    app.decorate('readCache', cache);
    app.decorateReply('readCacheKeep', null);
    app.decorate('keepAnswer', (reply: FastifyReply, key: string, started: number, session: CachedSession) => {
      if (cache) reply.readCacheKeep = { key, started, session };
    });
    if (!cache) return;
    app.addHook('onSend', (request, reply, payload, done) => {
      if (request.method !== 'GET' && request.method !== 'HEAD') {
        if (request.user) cache.dropUser(request.user.id);
        return done(null, payload);
      }
      const keep = reply.readCacheKeep;
      if (keep) {
        reply.readCacheKeep = null;
        if (reply.statusCode === 200 && typeof payload === 'string') cache.set(keep.key, keep.started, { ...keep.session, body: payload });
      }
      done(null, payload);
    });
    app.addHook('onClose', async () => cache.close());
  },
  { name: 'read-cache', dependencies: ['config', 'database'], fastify: '5.x' },
);
