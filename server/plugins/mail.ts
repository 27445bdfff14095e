import fp from 'fastify-plugin';
import { MailQueue, SmtpTransport, type MailQueueOptions, type MailTransport } from '../mail/mailer';

declare module 'fastify' {
  interface FastifyInstance {
    /** The durable mail queue (`outbox` table) and, with SMTP, its sending worker. */
    mailer: MailQueue;
  }
}

/**
 * Mail: every mail is queued in the database (`outbox`) in the transaction that causes it; with
 * `SMTP_URL` (or a transport given by tests) a worker sends the queue with retries. Without one the
 * queue is the development outbox (/dev/outbox).
 */
export default fp<{ transport?: MailTransport; queue?: MailQueueOptions }>(
  async (app, options) => {
    const { smtpUrl, mailFrom } = app.config;
    const transport = options.transport ?? (smtpUrl ? new SmtpTransport(smtpUrl, mailFrom) : null);
    const mailer = new MailQueue(app.db, transport, options.queue, (error) => app.log.error(error));
    app.decorate('mailer', mailer);
    app.addHook('onReady', async () => mailer.start());
    app.addHook('preClose', async () => mailer.stop());
  },
  { name: 'mail', dependencies: ['config', 'database'], fastify: '5.x' },
);
