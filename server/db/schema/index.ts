/**
 * The database schema (Drizzle), one file per domain; `db:generate` (drizzle.config.ts) reads it
 * from here, and every module imports the tables from `…/db/schema`.
 */
export * from './accounts';
export * from './nomenclature';
export * from './registration';
export * from './files';
export * from './identity';
export * from './payments';
export * from './staff';
export * from './privacy';
export * from './jobs';
