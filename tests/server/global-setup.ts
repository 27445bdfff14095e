import pg from 'pg';
import type { TestProject } from 'vitest/node';
import type { S3Config } from '../../server/config';
import { startS3 } from './s3-test-server';

declare module 'vitest' {
  export interface ProvidedContext {
    databaseUrl: string | null;
    /** `TEST_STORAGE=s3`: the API tests store files in an s3rver bucket started for the run. */
    s3: S3Config | null;
  }
}

/**
 * With DATABASE_URL (PostgreSQL), the API tests run in a database of their own, created empty for
 * this run and dropped after it: migrations are applied from scratch and nothing is left behind.
 */
export default async function setup(project: TestProject) {
  const s3 = process.env.TEST_STORAGE === 's3' ? await startS3('ghiseu-tests') : null;
  project.provide('s3', s3?.config ?? null);
  const baseUrl = process.env.DATABASE_URL;
  if (!baseUrl) {
    project.provide('databaseUrl', null);
    return async () => {
      await s3?.close();
    };
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
    await s3?.close();
  };
}
