import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { eq } from 'drizzle-orm';
import { users } from '../../server/db/schema';
import { mailsTo, registerUser, testApp } from './helpers';

let app: FastifyInstance;
beforeAll(async () => {
  app = await testApp();
});
afterAll(() => app.close());

describe('GET /api/email/verify/:token', () => {
  it('verifies the address on first use (verify-success), then says already verified', async () => {
    const { email } = await registerUser(app);
    const [mail] = await mailsTo(app, email);
    const path = new URL(mail.links[0]).pathname;
    const first = await app.inject({ method: 'GET', url: path });
    expect(first.statusCode).toBe(302);
    expect(first.headers.location).toBe('/email/verify-success/');
    const [row] = await app.db.select().from(users).where(eq(users.email, email));
    expect(row.emailVerifiedAt).toBeInstanceOf(Date);
    const second = await app.inject({ method: 'GET', url: path });
    expect(second.headers.location).toBe('/email/already-verified/');
  });

  it('sends an unknown link to a page the browser shows as not found, and verifies nobody', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/email/verify/inventat' });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/email/link-invalid');
  });

  it('puts the unsubscribe link of the user in the mail', async () => {
    const { email } = await registerUser(app);
    const [mail] = await mailsTo(app, email);
    const [row] = await app.db.select().from(users).where(eq(users.email, email));
    expect(mail.links).toContain(`http://localhost:3000/unsubscribe/${row.frontendId}`);
  });
});
