import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { eq, isNull } from 'drizzle-orm';
import { buildApp } from '../../server/app';
import { outbox } from '../../server/db/schema';
import { MailQueue } from '../../server/mail/mailer';
import { registerUser, testConfig, testDatabase, uniqueEmail } from './helpers';
import { freePort, startSmtpServer } from './smtp-test-server';

const SENT = 'Dacă adresa are un cont, ți-am trimis pe e-mail un link de resetare a parolei.';
const QUICK = { pollMs: 50, retryBaseMs: 50, maxRetryMs: 200 };

beforeAll(async () => {
  await testDatabase();
});

/**
 * The test database is shared with the other test files (none of which sends mail): their queued
 * mails are not this test's to send. Given up before each test, so the worker sends only this test's
 * mails instead of a backlog of hundreds.
 */
async function forgetOthersMails() {
  const { db } = await testDatabase();
  await db.update(outbox).set({ nextAttemptAt: null }).where(isNull(outbox.sentAt));
}
beforeEach(forgetOthersMails);

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (cleanup.length) await cleanup.pop()?.();
});

async function smtpApp(smtpUrl: string): Promise<FastifyInstance> {
  const app = await buildApp(testConfig({ smtpUrl }), { database: await testDatabase(), mailQueue: QUICK });
  await app.ready();
  cleanup.push(() => app.close());
  return app;
}

async function rowsTo(app: FastifyInstance, email: string) {
  return app.db.select().from(outbox).where(eq(outbox.to, email));
}

const isReset = (mail: { body: string }) => mail.body.includes('/password/reset?url=');

/** The reset endpoint named by the `url` parameter of the mail's /password/reset link. */
function resetTarget(body: string): URL {
  const page = body.match(/http:\/\/localhost:3000\/password\/reset\?url=[^\s"<>]+/);
  expect(page, body).not.toBeNull();
  return new URL(new URL((page as RegExpMatchArray)[0].replace(/&amp;/g, '&')).searchParams.get('url') as string);
}

describe('mail queue over SMTP (a real SMTP server on 127.0.0.1)', () => {
  it('the reset mail arrives with a link that sets the new password through the API', async () => {
    const smtp = await startSmtpServer();
    cleanup.push(() => smtp.close());
    const app = await smtpApp(smtp.url);
    const { email } = await registerUser(app);
    const verify = await smtp.next(email, (m) => m.body.includes('/api/email/verify/'));
    expect(verify.body).toContain('Te rugăm să îți confirmi adresa de e-mail');

    const res = await app.inject({ method: 'POST', url: '/api/password/forgot', payload: { email } });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe(SENT);
    const mail = await smtp.next(email, isReset);
    expect(mail.body).toContain('Am primit o cerere de resetare a parolei pentru contul tău.');

    const target = resetTarget(mail.body);
    expect(target.pathname).toMatch(/^\/api\/password\/reset\/[\w-]{40,}$/);
    const reset = await app.inject({
      method: 'POST',
      url: target.pathname,
      payload: { password: 'parola-din-mail', password_confirmation: 'parola-din-mail' },
    });
    expect(reset.statusCode).toBe(200);
    expect(reset.json().message).toBe('Parola a fost schimbată. Te poți autentifica cu noua parolă.');
    const login = await app.inject({ method: 'POST', url: '/api/login', payload: { email, password: 'parola-din-mail' } });
    expect(login.statusCode).toBe(200);
  });

  it('SMTP down: registration and reset answer as usual; once SMTP is up the mail arrives exactly once', async () => {
    const port = await freePort();
    const app = await smtpApp(`smtp://127.0.0.1:${port}`);
    const registered = await registerUser(app);
    const forgot = await app.inject({ method: 'POST', url: '/api/password/forgot', payload: { email: registered.email } });
    expect(forgot.statusCode).toBe(200);
    expect(forgot.json().message).toBe(SENT);
    const unknown = await app.inject({ method: 'POST', url: '/api/password/forgot', payload: { email: uniqueEmail('necunoscut') } });
    expect(unknown.json()).toEqual(forgot.json());

    // The worker tried and failed: the mail waits in the queue with the error, not sent.
    await vi.waitFor(
      async () => {
        const [reset] = (await rowsTo(app, registered.email)).filter((r) => r.subject.startsWith('Resetează'));
        expect(reset.attempts).toBeGreaterThanOrEqual(1);
        expect(reset.lastError).toBeTruthy();
        expect(reset.sentAt).toBeNull();
      },
      { timeout: 10_000, interval: 50 },
    );

    const smtp = await startSmtpServer(port);
    cleanup.push(() => smtp.close());
    const mail = await smtp.next(registered.email, isReset);
    expect(resetTarget(mail.body).pathname).toMatch(/^\/api\/password\/reset\//);
    await vi.waitFor(
      async () => {
        for (const row of await rowsTo(app, registered.email)) expect(row.sentAt).not.toBeNull();
      },
      { timeout: 10_000, interval: 50 },
    );
    // Further passes of the worker send nothing again.
    await app.mailer.drain();
    await app.mailer.drain();
    expect(smtp.mailsTo(registered.email).filter(isReset)).toHaveLength(1);
    expect(smtp.mailsTo(registered.email)).toHaveLength(2);
  });

  it('two workers on one queue send each mail once', async () => {
    const smtp = await startSmtpServer();
    cleanup.push(() => smtp.close());
    const db = (await testDatabase()).db;
    const { SmtpTransport } = await import('../../server/mail/mailer');
    const a = new MailQueue(db, new SmtpTransport(smtp.url, 'A <a@ghiseu.local>'));
    const b = new MailQueue(db, new SmtpTransport(smtp.url, 'B <b@ghiseu.local>'));
    const to = uniqueEmail('coada');
    for (let i = 0; i < 25; i++) await a.queue(db, { to, subject: `Mesaj ${i}`, text: `Mesajul ${i}`, html: `<p>Mesajul ${i}</p>` });
    await Promise.all([a.drain(), b.drain(), a.drain(), b.drain()]);
    const subjects = smtp.mailsTo(to).map((m) => m.body.match(/^Subject: (.*)$/m)?.[1]);
    expect(subjects).toHaveLength(25);
    expect(new Set(subjects).size).toBe(25);
    await a.stop();
    await b.stop();
  });

  it('gives a mail up after its last attempt, keeping the error', async () => {
    const db = (await testDatabase()).db;
    const failing = new MailQueue(db, { send: () => Promise.reject(new Error('550 mailbox unavailable')) }, { retryBaseMs: 0, maxAttempts: 3 });
    const to = uniqueEmail('refuzat');
    await failing.queue(db, { to, subject: 'S', text: 'T', html: '<p>T</p>' });
    for (let i = 0; i < 5; i++) await failing.drain();
    const [row] = await db.select().from(outbox).where(eq(outbox.to, to));
    expect(row).toMatchObject({ attempts: 3, nextAttemptAt: null, sentAt: null, lastError: '550 mailbox unavailable' });
  });
});
