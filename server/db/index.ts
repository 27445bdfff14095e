import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as schema from './schema';
import { seedDatabase } from './seed';
import { pgliteChanges, postgresChanges, type ChangeFeed } from './changes';

import type { Db } from './types';

export type { Db };

export interface Database {
  db: Db;
  /** 'pglite' (embedded) or 'postgres' (DATABASE_URL). */
  kind: 'pglite' | 'postgres';
  /** The change notifications of migration 0012, for the read cache (server/db/changes.ts). */
  changes: ChangeFeed;
  close(): Promise<void>;
}

const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');
/** Serialises migrations and seeding when several processes share one PostgreSQL (tests, rolling deploys). */
const MIGRATION_LOCK_KEY = 727_001;

/**
 * Opens the database named by the configuration, applies pending migrations and loads the seed
 * data (nomenclatures, partners). PGlite keeps its files in `dataDir/pgdata`; `:memory:` keeps
 * nothing (tests).
 */
export async function openDatabase(options: { databaseUrl: string | null; dataDir: string }): Promise<Database> {
  if (options.databaseUrl) {
    const { default: pg } = await import('pg');
    const { drizzle } = await import('drizzle-orm/node-postgres');
    const { migrate } = await import('drizzle-orm/node-postgres/migrator');
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 10 });
    const db = drizzle(pool, { schema }) as unknown as Db;
    const lock = await pool.connect();
    try {
      await lock.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
      await migrate(drizzle(lock, { schema }), { migrationsFolder });
      await seedDatabase(drizzle(lock, { schema }) as unknown as Db);
    } finally {
      await lock.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
      lock.release();
    }
    const changes = postgresChanges(pool, () => new pg.Client({ connectionString: options.databaseUrl! }));
    return {
      db,
      kind: 'postgres',
      changes,
      close: async () => {
        await changes.close();
        await pool.end();
      },
    };
  }

  const { PGlite } = await import('@electric-sql/pglite');
  const { drizzle } = await import('drizzle-orm/pglite');
  const { migrate } = await import('drizzle-orm/pglite/migrator');
  let dataPath: string | undefined;
  if (options.dataDir !== ':memory:') {
    dataPath = path.join(options.dataDir, 'pgdata');
    fs.mkdirSync(dataPath, { recursive: true });
  }
  const client = dataPath ? new PGlite(dataPath) : new PGlite();
  const pgliteDb = drizzle(client, { schema });
  await migrate(pgliteDb, { migrationsFolder });
  const db = pgliteDb as unknown as Db;
  await seedDatabase(db);
  const changes = pgliteChanges(client);
  return {
    db,
    kind: 'pglite',
    changes,
    close: async () => {
      await changes.close();
      await client.close();
    },
  };
}
