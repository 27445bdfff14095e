import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import databasePlugin from '../../server/plugins/database';
import mailPlugin from '../../server/plugins/mail';
import { testApp } from './helpers';

const CAPABILITIES = ['config', 'database', 'flows', 'redis', 'auth', 'mail', 'storage', 'identity', 'payments', 'company-lookup', 'limits', 'app'];

describe('the app as named plugins (DESIGN.md "Server layers")', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await testApp();
  });
  afterAll(() => app?.close());

  it('registers every capability as a named plugin', () => {
    for (const name of CAPABILITIES) expect(app.hasPlugin(name), name).toBe(true);
  });

  it('refuses a capability whose dependencies are not registered before it', async () => {
    const bare = Fastify();
    bare.register(databasePlugin);
    await expect(bare.ready()).rejects.toThrow(/dependency 'config'/);
    const noDatabase = Fastify();
    noDatabase.register(mailPlugin);
    await expect(noDatabase.ready()).rejects.toThrow(/dependency '(config|database)'/);
  });
});
