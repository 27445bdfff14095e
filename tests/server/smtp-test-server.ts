import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  /** Envelope recipients (RCPT TO). */
  to: string[];
  /** The raw message with quoted-printable text decoded (enough to read the links in it). */
  body: string;
}

/** Quoted-printable decoding of a raw message (soft line breaks and =XX bytes, read as UTF-8). */
function decodeQuotedPrintable(raw: string): string {
  const joined = raw.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < joined.length; i++) {
    const hex = joined[i] === '=' ? joined.slice(i + 1, i + 3) : '';
    if (/^[0-9A-F]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(joined[i], 'utf8'));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

/**
 * A real SMTP server (nodemailer's `smtp-server`) on 127.0.0.1: the mails it accepted, and a way to
 * wait for the next one to an address. `port` 0 takes a free port; a given port lets a test bring a
 * server up where the app already expects one.
 */
export async function startSmtpServer(port = 0) {
  const received: ReceivedMail[] = [];
  const waiters: { to: string; resolve: (mail: ReceivedMail) => void }[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const mail = { to: session.envelope.rcptTo.map((r) => r.address), body: decodeQuotedPrintable(Buffer.concat(chunks).toString('latin1')) };
        received.push(mail);
        for (const waiter of waiters.filter((w) => mail.to.includes(w.to))) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve(mail);
        }
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const address = (server.server.address() as AddressInfo).port;
  return {
    port: address,
    url: `smtp://127.0.0.1:${address}`,
    received,
    /** Mails accepted for `to` so far. */
    mailsTo: (to: string) => received.filter((m) => m.to.includes(to)),
    /** The first mail to `to` whose body matches, waiting for it to arrive when none has yet. */
    next(to: string, match: (mail: ReceivedMail) => boolean = () => true): Promise<ReceivedMail> {
      const found = received.find((m) => m.to.includes(to) && match(m));
      if (found) return Promise.resolve(found);
      return new Promise((resolve) => {
        const waiter = {
          to,
          resolve: (mail: ReceivedMail) => {
            if (match(mail)) resolve(mail);
            else waiters.push(waiter);
          },
        };
        waiters.push(waiter);
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A port nothing listens on right now (taken from the system, then released). */
export async function freePort(): Promise<number> {
  const probe = await startSmtpServer();
  await probe.close();
  return probe.port;
}
