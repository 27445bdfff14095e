import fp from 'fastify-plugin';
import { openDatabase, type Database, type Db } from '../db';
import { moveCodesToCurrentRevision } from '../registration/store';

declare module 'fastify' {
  interface FastifyInstance {
    db: Db;
    database: Database;
  }
}

/**
 * The database: PostgreSQL (`DATABASE_URL`) or the embedded PGlite, migrated at open. A database
 * passed in (tests share one per worker) is closed by its owner, not by the app.
 */
export default fp<{ database?: Database }>(
  async (app, options) => {
    const database = options.database ?? (await openDatabase(app.config));
    if (!options.database) app.addHook('onClose', () => database.close());
    app.decorate('database', database);
    app.decorate('db', database.db);
    // Requests not yet sent move from CAEN Rev.2 to Rev.3 once both lists are loaded (issue 31); usually none is left.
    await moveCodesToCurrentRevision(database.db);
  },
  { name: 'database', dependencies: ['config'], fastify: '5.x' },
);
