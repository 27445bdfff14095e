import pg from 'pg';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    databaseUrl: string | null;
  }
}

/**
 * With DATABASE_URL (PostgreSQL), the API tests run in a database of their own, created empty for
 * this run and dropped after it: migrations are applied from scratch and nothing is left behind.
 */
export default async function setup(project: TestProject) {
  const baseUrl = process.env.DATABASE_URL;
  if (!baseUrl) {
    project.provide('databaseUrl', null);
    return;
  }
  const name = `pfa_test_${process.pid}_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  project.provide('databaseUrl', url.toString());

  return async () => {
    const client = new pg.Client({ connectionString: baseUrl });
    await client.connect();
    await client.query(`drop database if exists ${name} with (force)`);
    await client.end();
  };
}
