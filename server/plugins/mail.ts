import fp from 'fastify-plugin';
import { OutboxMailer, SmtpMailer, type Mailer } from '../mail/mailer';

declare module 'fastify' {
  interface FastifyInstance {
    mailer: Mailer;
  }
}

/** Mail: SMTP when `SMTP_URL` is set, else the database outbox (development, /dev/outbox). */
export default fp<{ mailer?: Mailer }>(
  async (app, options) => {
    const { smtpUrl, mailFrom } = app.config;
    app.decorate('mailer', options.mailer ?? (smtpUrl ? new SmtpMailer(smtpUrl, mailFrom) : new OutboxMailer(app.db)));
  },
  { name: 'mail', dependencies: ['config', 'database'], fastify: '5.x' },
);
