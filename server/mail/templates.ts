import type { Mail } from './mailer';
import { messages, type Language } from '../messages';

/** The mails' texts are in server/messages/ (ro.ts, en.ts): these functions only lay them out. */

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);
}

function layout(language: Language, product: string, paragraphs: string[], link: { href: string; label: string }, unsubscribe?: string): string {
  const text = messages(language).mail.layout;
  const body = paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n');
  const footer = unsubscribe
    ? `<p style="font-size:12px;color:#666">${escapeHtml(text.unsubscribeQuestion)} <a href="${escapeHtml(unsubscribe)}">${escapeHtml(text.unsubscribe)}</a></p>`
    : '';
  return `<!doctype html><html lang="${language}"><body style="font-family:sans-serif;line-height:1.5">
<h1 style="font-size:20px">${escapeHtml(product)}</h1>
${body}
<p><a href="${escapeHtml(link.href)}" style="display:inline-block;padding:10px 16px;background:#1a56db;color:#fff;border-radius:6px;text-decoration:none">${escapeHtml(link.label)}</a></p>
<p style="font-size:12px;color:#666">${escapeHtml(text.copyAddress)} ${escapeHtml(link.href)}</p>
${footer}
</body></html>`;
}

export function verifyEmailMail(to: string, product: string, link: string, unsubscribe: string, language: Language = 'ro'): Mail {
  const text = messages(language).mail;
  const lines = text.verify.lines(product);
  return {
    to,
    subject: text.verify.subject(product),
    text: `${lines.join('\n\n')}\n\n${text.verify.textLink}: ${link}\n\n${text.layout.unsubscribe}: ${unsubscribe}\n`,
    html: layout(language, product, lines, { href: link, label: text.verify.button }, unsubscribe),
  };
}

export function resetPasswordMail(to: string, product: string, link: string, ttlMinutes: number, language: Language = 'ro'): Mail {
  const text = messages(language).mail.reset;
  const lines = text.lines(ttlMinutes);
  return {
    to,
    subject: text.subject(product),
    text: `${lines.join('\n\n')}\n\n${text.textLink}: ${link}\n`,
    html: layout(language, product, lines, { href: link, label: text.button }),
  };
}

export interface ReceiptDetails {
  /** "130,00 lei" */
  amount: string;
  /** "25 noiembrie 2026" */
  date: string;
  /** What was bought: "Abonament Ghișeu – iCredit" */
  item: string;
  /** The billing after this payment: "130 lei/lună în primele 3 luni, apoi 72 lei/lună", or null. */
  terms: string | null;
  /** Our payment id: what the applicant quotes when writing in. */
  reference: string;
  /** The dossier's page (the status page of a new PFA). */
  link: string;
}

/** The receipt of a payment (issue 17 item 4): sent once, when the payment becomes paid. */
export function paymentReceiptMail(to: string, product: string, receipt: ReceiptDetails, language: Language = 'ro'): Mail {
  const text = messages(language).mail.receipt;
  const lines = [
    text.thanks,
    `${text.amount}: ${receipt.amount}`,
    `${text.date}: ${receipt.date}`,
    `${text.item}: ${receipt.item}`,
    ...(receipt.terms ? [`${text.terms}: ${receipt.terms}`] : []),
    `${text.reference}: ${receipt.reference}`,
  ];
  return {
    to,
    subject: text.subject(product),
    text: `${lines.join('\n\n')}\n\n${text.textLink}: ${receipt.link}\n`,
    html: layout(language, product, lines, { href: receipt.link, label: text.button }),
  };
}

/**
 * An operator asks the applicant for missing documents (issue 18): their words between the catalogue's
 * lines, and the dossier's page, in the applicant's language (the operator's message is as written).
 */
export function missingDocumentsMail(to: string, product: string, message: string, link: string, language: Language = 'ro'): Mail {
  const text = messages(language).mail.missingDocuments;
  const lines = [text.intro, message, text.outro];
  return {
    to,
    subject: text.subject(product),
    text: `${lines.join('\n\n')}\n\n${text.textLink}: ${link}\n`,
    html: layout(language, product, lines, { href: link, label: text.button }),
  };
}

/** What an erasure kept, for its confirmation mail (server/privacy/erase.ts). */
export interface ErasureKept {
  payments: { count: number; until: string } | null;
  contractUntil: string | null;
  tradeRegister: boolean;
}

/**
 * The confirmation that an account was erased (issue 32, GDPR art. 17): sent once, after the erasure,
 * to the address that was erased; it says what the law made us keep and until when, and no data.
 */
export function accountErasedMail(
  to: string,
  product: string,
  reason: { by: 'applicant' | 'operator' } | { by: 'retention'; days: number },
  kept: ErasureKept,
  privacyUrl: string,
  language: Language = 'ro',
): Mail {
  const text = messages(language).mail.accountErased;
  const intro = reason.by === 'retention' ? text.intro.retention(reason.days) : text.intro[reason.by];
  const keptLines = [
    kept.payments ? text.keptPayment(kept.payments.count, kept.payments.until) : null,
    kept.contractUntil ? text.keptContract(kept.contractUntil) : null,
    kept.tradeRegister ? text.keptTradeRegister : null,
  ].filter((line): line is string => line !== null);
  const lines = [intro, ...(keptLines.length ? [text.kept, ...keptLines.map((l) => `– ${l}`)] : [text.nothingKept]), text.outro];
  return {
    to,
    subject: text.subject(product),
    text: `${lines.join('\n\n')}\n\n${text.textLink}: ${privacyUrl}\n`,
    html: layout(language, product, lines, { href: privacyUrl, label: text.button }),
  };
}

/**
 * The retention job's warning (issue 32, server/privacy/retention.ts): an unfinished application
 * the applicant has not touched for long is erased after `eraseAfter` unless they sign in before;
 * the sign-in link and the "Datele tale" page (see, download or erase the data).
 */
export function retentionWarningMail(to: string, product: string, eraseAfter: Date, links: { login: string; data: string }, language: Language = 'ro'): Mail {
  const text = messages(language).mail.retentionWarning;
  const date = new Intl.DateTimeFormat(messages(language).locale, { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'Europe/Bucharest' }).format(eraseAfter);
  const lines = [...text.lines(product, date), `${text.data} ${links.data}`];
  return {
    to,
    subject: text.subject(product),
    text: `${lines.join('\n\n')}\n\n${text.textLink}: ${links.login}\n`,
    html: layout(language, product, lines, { href: links.login, label: text.button }),
  };
}
