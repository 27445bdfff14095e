import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { eq } from 'drizzle-orm';
import { users } from '../../server/db/schema';
import { auth, registerUser, testApp } from './helpers';

let app: FastifyInstance;
beforeAll(async () => {
  app = await testApp();
});
afterAll(() => app.close());

describe('GET /api/partner/index', () => {
  it('lists the active partners with the unaffiliated one first', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/partner/index?selected_partner=icredit' });
    expect(res.statusCode).toBe(200);
    const partners = res.json().payload;
    expect(partners[0]).toMatchObject({ slug: 'neafiliat', is_unaffiliated: true });
    expect(partners.map((p: { slug: string }) => p.slug)).toEqual(expect.arrayContaining(['icredit', 'curier']));
    // Issue 17 item 5: each plan's prices and footnote too (the register page shows them); nothing else.
    expect(Object.keys(partners[0]).sort()).toEqual(['footnote', 'id', 'is_unaffiliated', 'name', 'prices', 'slug']);
  });

  it('refuses an over-long selected_partner', async () => {
    const res = await app.inject({ method: 'GET', url: `/api/partner/index?selected_partner=${'x'.repeat(101)}` });
    expect(res.statusCode).toBe(422);
  });
});

describe('POST /api/unsubscribe', () => {
  it('stops notifications for the user of the frontend_id', async () => {
    const { user } = await registerUser(app);
    const [row] = await app.db.select().from(users).where(eq(users.id, user.id));
    const res = await app.inject({ method: 'POST', url: '/api/unsubscribe', payload: { frontend_id: row.frontendId } });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe('Nu vei mai primi notificări de la noi.');
    const [after] = await app.db.select().from(users).where(eq(users.id, user.id));
    expect(after.unsubscribedAt).toBeInstanceOf(Date);
  });

  it('answers 404 for an unknown id and 422 for an empty one, changing nothing', async () => {
    expect((await app.inject({ method: 'POST', url: '/api/unsubscribe', payload: { frontend_id: 'nu-exista' } })).statusCode).toBe(404);
    const empty = await app.inject({ method: 'POST', url: '/api/unsubscribe', payload: { frontend_id: '' } });
    expect(empty.statusCode).toBe(422);
    expect(empty.json().payload).toEqual({ frontend_id: ['Câmpul este obligatoriu.'] });
  });
});

describe('dev outbox', () => {
  it('serves the outbox as JSON (newest first, with links) and as a page', async () => {
    const a = await registerUser(app);
    const res = await app.inject({ method: 'GET', url: '/api/dev/outbox' });
    expect(res.statusCode).toBe(200);
    const mails = res.json().payload;
    expect(mails[0].to).toBe(a.email);
    expect(mails[0].links.length).toBeGreaterThan(0);
    const page = await app.inject({ method: 'GET', url: '/dev/outbox' });
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain(a.email);
  });

  it('answers only clients on this machine: from another address it is a 404 with no mail in it', async () => {
    const victim = await registerUser(app);
    await app.inject({ method: 'POST', url: '/api/password/forgot', payload: { email: victim.email } });
    for (const remoteAddress of ['203.0.113.7', '192.168.1.20', '::ffff:10.0.0.5', '2001:db8::1']) {
      for (const url of [`/api/dev/outbox?to=${encodeURIComponent(victim.email)}`, '/api/dev/outbox', '/dev/outbox']) {
        const res = await app.inject({ method: 'GET', url, remoteAddress });
        expect(res.statusCode, `${remoteAddress} ${url}`).toBe(404);
        expect(res.body).not.toContain(victim.email);
        expect(res.body).not.toContain('/password/reset');
      }
    }
    for (const remoteAddress of ['127.0.0.1', '127.0.1.1', '::1', '::ffff:127.0.0.1']) {
      const res = await app.inject({ method: 'GET', url: `/api/dev/outbox?to=${encodeURIComponent(victim.email)}`, remoteAddress });
      expect(res.statusCode, remoteAddress).toBe(200);
    }
  });

  it('a proxy on this machine does not open it: the client it names must be on this machine too', async () => {
    const proxied = await testApp({ trustProxy: ['127.0.0.1'] });
    try {
      const outside = await proxied.inject({ method: 'GET', url: '/api/dev/outbox', headers: { 'x-forwarded-for': '203.0.113.7' } });
      expect(outside.statusCode).toBe(404);
      const local = await proxied.inject({ method: 'GET', url: '/api/dev/outbox', headers: { 'x-forwarded-for': '127.0.0.1' } });
      expect(local.statusCode).toBe(200);
    } finally {
      await proxied.close();
    }
  });

  it('behind a reverse proxy on this machine without TRUST_PROXY: any proxy header is refused (issue 32)', async () => {
    const victim = await registerUser(app);
    await app.inject({ method: 'POST', url: '/api/password/forgot', payload: { email: victim.email } });
    const proxied: Record<string, string>[] = [
      { 'x-forwarded-for': '203.0.113.7' },
      { forwarded: 'for=203.0.113.7' },
      { forwarded: 'for="[2001:db8::1]:4711";proto=https' },
      { 'x-real-ip': '203.0.113.7' },
      // Even a loopback client named by a proxy nobody said to trust.
      { 'x-forwarded-for': '127.0.0.1' },
    ];
    for (const headers of proxied) {
      for (const url of ['/api/dev/outbox', '/dev/outbox', '/api/docs', '/api/docs/json']) {
        const res = await app.inject({ method: 'GET', url, headers });
        expect(res.statusCode, `${JSON.stringify(headers)} ${url}`).toBe(404);
        expect(res.body).not.toContain(victim.email);
      }
    }
  });

  it('with TRUST_PROXY, every client a proxy names must be on this machine, in any header', async () => {
    const trusted = await testApp({ trustProxy: ['127.0.0.1'] });
    try {
      for (const headers of [{ forwarded: 'for=203.0.113.7' }, { 'x-real-ip': '203.0.113.7' }, { 'x-forwarded-for': '127.0.0.1', forwarded: 'for=203.0.113.7' }]) {
        expect((await trusted.inject({ method: 'GET', url: '/api/dev/outbox', headers })).statusCode, JSON.stringify(headers)).toBe(404);
      }
      expect((await trusted.inject({ method: 'GET', url: '/api/dev/outbox', headers: { forwarded: 'for="[::1]:5000"' } })).statusCode).toBe(200);
    } finally {
      await trusted.close();
    }
  });

  it('does not exist in production, not even for this machine', async () => {
    const prodApp = await testApp({ production: true });
    try {
      expect((await prodApp.inject({ method: 'GET', url: '/api/dev/outbox' })).statusCode).toBe(404);
      expect((await prodApp.inject({ method: 'GET', url: '/dev/outbox' })).statusCode).toBe(404);
    } finally {
      await prodApp.close();
    }
  });

  it('does not exist when SMTP is configured', async () => {
    const smtpApp = await testApp({ smtpUrl: 'smtp://127.0.0.1:2525' });
    try {
      expect((await smtpApp.inject({ method: 'GET', url: '/api/dev/outbox' })).statusCode).toBe(404);
      expect((await smtpApp.inject({ method: 'GET', url: '/dev/outbox' })).statusCode).toBe(404);
    } finally {
      await smtpApp.close();
    }
  });
});

describe('built-in dashboard hand-over /sso/:token', () => {
  it('shows which user arrived', async () => {
    const { email, token } = await registerUser(app);
    const res = await app.inject({ method: 'GET', url: `/sso/${token}` });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain(email);
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
  });

  it('refuses an unknown token', async () => {
    const res = await app.inject({ method: 'GET', url: '/sso/inventat' });
    expect(res.statusCode).toBe(401);
    expect(res.body).toContain('Sesiune invalidă');
  });

  it('is absent when DASHBOARD_URL points elsewhere', async () => {
    const other = await testApp({ dashboardUrl: 'https://dashboard.exemplu.ro' });
    try {
      expect((await other.inject({ method: 'GET', url: '/sso/x' })).statusCode).toBe(404);
      expect((await other.inject({ method: 'GET', url: '/api/config' })).json().payload.dashboard_url).toBe('https://dashboard.exemplu.ro');
    } finally {
      await other.close();
    }
  });
});

describe('GET /api/health and /api/config', () => {
  it('report status and the public settings', async () => {
    expect((await app.inject({ method: 'GET', url: '/api/health' })).json().payload.status).toBe('ok');
    const config = (await app.inject({ method: 'GET', url: '/api/config' })).json().payload;
    expect(config).toEqual({
      product_name: 'Ghișeu',
      product_slug: 'ghiseu',
      dashboard_url: 'http://localhost:3000',
      support_widget_url: null,
      // The brand's defaults (content/brand.json) with no variable set: never a dead end.
      site_url: 'https://ghiseu.ro',
      contact_email: 'contact@ghiseu.ro',
      contact_phone: null,
      logo_url: '/logo.svg',
      terms_url: '/termeni',
      privacy_url: '/confidentialitate',
    });
  });

  it('answers unknown API paths with a JSON 404', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/nu-exista', headers: auth('x') });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: 'Resursa nu a fost găsită.', payload: null });
  });
});
