import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type * as schema from './schema';

/** The app's database (PGlite or node-postgres behind the same Drizzle interface). */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
