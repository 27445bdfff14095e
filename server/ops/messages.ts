import { DOSSIER_ACTION_MESSAGES } from '../staff/dossier-actions';

/** The operator API's texts (`/api/ops/…`, server/routes/ops.ts). */
export const OPS_MESSAGES = {
  ...DOSSIER_ACTION_MESSAGES,
  disabled: 'API-ul operatorilor este dezactivat: setează OPS_TOKEN (sau un DATA_DIR pe disc).',
  unauthorized: 'Tokenul de operator lipsește sau nu este corect.',
  actor: 'Numește operatorul în antetul X-Ops-Actor (variabila OPS_ACTOR a comenzii): 1–100 caractere tipăribile.',
  notFound: (dossier: string) => `Dosarul „${dossier}” nu a fost găsit.`,
  badDossier: 'Numește dosarul prin id-ul cererii sau prin adresa de e-mail a solicitantului.',
  noSignedDocument: 'Dosarul nu are acest document semnat.',
  staffAdded: 'Contul de personal a fost creat.',
  staffTaken: 'Există deja un cont de personal cu această adresă de e-mail.',
  noAccount: (email: string) => `Nu există niciun cont cu adresa ${email}.`,
  erased: 'Contul și datele lui au fost șterse; solicitantul primește un e-mail de confirmare.',
} as const;
