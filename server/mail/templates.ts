import type { Mail } from './mailer';

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);
}

function layout(product: string, paragraphs: string[], link: { href: string; label: string }, unsubscribe?: string): string {
  const body = paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n');
  const footer = unsubscribe
    ? `<p style="font-size:12px;color:#666">Nu mai vrei notificări? <a href="${escapeHtml(unsubscribe)}">Dezabonare</a></p>`
    : '';
  return `<!doctype html><html lang="ro"><body style="font-family:sans-serif;line-height:1.5">
<h1 style="font-size:20px">${escapeHtml(product)}</h1>
${body}
<p><a href="${escapeHtml(link.href)}" style="display:inline-block;padding:10px 16px;background:#1a56db;color:#fff;border-radius:6px;text-decoration:none">${escapeHtml(link.label)}</a></p>
<p style="font-size:12px;color:#666">Dacă butonul nu funcționează, copiază adresa: ${escapeHtml(link.href)}</p>
${footer}
</body></html>`;
}

export function verifyEmailMail(to: string, product: string, link: string, unsubscribe: string): Mail {
  const lines = [
    `Bine ai venit în ${product}!`,
    'Te rugăm să îți confirmi adresa de e-mail apăsând pe butonul de mai jos.',
  ];
  return {
    to,
    subject: `Confirmă adresa de e-mail pentru ${product}`,
    text: `${lines.join('\n\n')}\n\nConfirmă adresa: ${link}\n\nDezabonare: ${unsubscribe}\n`,
    html: layout(product, lines, { href: link, label: 'Confirmă adresa de e-mail' }, unsubscribe),
  };
}

export function resetPasswordMail(to: string, product: string, link: string, ttlMinutes: number): Mail {
  const lines = [
    'Am primit o cerere de resetare a parolei pentru contul tău.',
    `Linkul este valabil ${ttlMinutes} de minute și poate fi folosit o singură dată. Dacă nu ai cerut resetarea, ignoră acest mesaj.`,
  ];
  return {
    to,
    subject: `Resetează parola contului ${product}`,
    text: `${lines.join('\n\n')}\n\nResetează parola: ${link}\n`,
    html: layout(product, lines, { href: link, label: 'Resetează parola' }),
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
export function paymentReceiptMail(to: string, product: string, receipt: ReceiptDetails): Mail {
  const lines = [
    'Plata a fost primită. Îți mulțumim!',
    `Suma: ${receipt.amount}`,
    `Data: ${receipt.date}`,
    `Pentru: ${receipt.item}`,
    ...(receipt.terms ? [`Abonament: ${receipt.terms}`] : []),
    `Referința plății: ${receipt.reference}`,
  ];
  return {
    to,
    subject: `Plata a fost primită – ${product}`,
    text: `${lines.join('\n\n')}\n\nStatusul dosarului: ${receipt.link}\n`,
    html: layout(product, lines, { href: receipt.link, label: 'Vezi statusul dosarului' }),
  };
}

/** An operator asks the applicant for documents that are missing (issue 18): their words, and the dossier's page. */
export function missingDocumentsMail(to: string, product: string, message: string, link: string): Mail {
  const lines = ['Pentru a continua dosarul tău avem nevoie de câteva documente în plus:', message, 'Te rugăm să intri în cont și să le trimiți.'];
  return {
    to,
    subject: `Documente lipsă pentru dosarul tău ${product}`,
    text: `${lines.join('\n\n')}\n\nDosarul tău: ${link}\n`,
    html: layout(product, lines, { href: link, label: 'Deschide dosarul' }),
  };
}
