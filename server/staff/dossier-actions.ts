import type { FastifyInstance } from 'fastify';
import { userLanguage } from '../lib/users';
import { missingDocumentsMail } from '../mail/templates';
import type { RequestRow } from '../registration/model';
import { TRADE_REGISTER_MAX_BYTES, TRADE_REGISTER_MAX_FILES } from '../registration/timeline';
import { recordAudit, type Actor } from './audit';

/**
 * What an operator action answers, the same through the console's API and the ops API (both call the
 * actions here and in server/registration/timeline.ts).
 */
export const DOSSIER_ACTION_MESSAGES = {
  added: 'Elementul a fost adăugat în istoricul dosarului.',
  attached: 'Documentele au fost atașate dosarului.',
  finalized: 'Dosarul a fost finalizat.',
  rejected: 'Dosarul a fost respins.',
  mailQueued: 'Mesajul către solicitant a fost pus în coada de trimitere.',
  tooLarge: `Un fișier poate avea cel mult ${TRADE_REGISTER_MAX_BYTES / 1024 / 1024} MB.`,
  tooMany: `Poți trimite cel mult ${TRADE_REGISTER_MAX_FILES} fișiere odată.`,
} as const;

/**
 * The operator actions that are not the timeline's (server/registration/timeline.ts holds adding
 * an item, finalizing, rejecting and attaching the trade register's documents): each writes its
 * audit entry in the transaction of the change. Used by the staff API (server/routes/staff-dossiers.ts).
 */

/** Where the applicant follows the dossier: the status page of a new PFA, the flow of an existing one. */
export function dossierLink(publicUrl: string, registrationType: number): string {
  return `${publicUrl}${registrationType === 2 ? '/infiintare-pfa/status' : '/inregistrare'}`;
}

/**
 * Asks the applicant for missing documents: a mail through the outbox queue (server/mail) with the
 * operator's message, and the audit entry (`mail.missing_documents`), both or neither.
 */
export async function askForMissingDocuments(app: FastifyInstance, request: RequestRow, to: string, message: string, actor: Actor) {
  // In the language the applicant last chose (issue 18), like the receipt.
  const language = await userLanguage(app.db, request.userId);
  const mail = missingDocumentsMail(to, app.config.productName, message.trim(), dossierLink(app.config.publicUrl, request.registrationType), language);
  await app.db.transaction(async (tx) => {
    await app.mailer.queue(tx, mail);
    await recordAudit(tx, { staffUserId: actor.staffUserId, action: 'mail.missing_documents', requestId: request.id, after: { to, subject: mail.subject, message: message.trim() } });
  });
  app.mailer.wake();
  return { to, subject: mail.subject };
}
