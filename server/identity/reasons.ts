/**
 * Romanian reasons for Veriff's reason codes (Veriff docs, "Verification session decision codes"
 * and "Granular reason codes"); codes not listed fall back to the decision's status.
 */
const REASONS: Record<number, string> = {
  101: 'Nu a fost folosit un document fizic.',
  102: 'Documentul pare să fi fost modificat.',
  103: 'Persoana din selfie nu pare să fie aceeași cu cea din fotografia documentului.',
  104: 'Numele introdus nu corespunde cu cel din document.',
  105: 'Verificarea a semnalat un comportament suspect.',
  106: 'Verificarea nu a putut fi aprobată.',
  107: 'Au fost făcute prea multe încercări de verificare.',
  108: 'Au fost făcute prea multe încercări de verificare.',
  109: 'Au fost făcute prea multe încercări de verificare de pe același dispozitiv.',
  110: 'Documentul a fost folosit deja într-o altă verificare.',
  112: 'Verificarea nu este permisă din locația ta.',
  120: 'Persoana din selfie nu pare să fie aceeași cu cea din fotografia documentului.',
  201: 'Lipsesc fotografiile necesare.',
  202: 'Fața nu este vizibilă în selfie.',
  203: 'Documentul nu este vizibil în întregime.',
  204: 'Fotografia documentului nu este clară.',
  205: 'Documentul este deteriorat.',
  206: 'Tipul documentului nu este acceptat. Folosește cartea de identitate.',
  207: 'Documentul este expirat.',
};

const BY_STATUS: Record<string, string> = {
  resubmission_requested: 'Fotografiile nu au putut fi verificate. Te rugăm să reiei procesul cu fotografii noi.',
  expired: 'Sesiunea de verificare a expirat. Te rugăm să reiei procesul.',
  abandoned: 'Sesiunea de verificare a fost abandonată. Te rugăm să reiei procesul.',
};

/** The Romanian reason of a decision, or null when none is known (the browser shows its generic copy). */
export function romanianReason(reasonCode: number | null, providerStatus: string): string | null {
  if (reasonCode !== null && REASONS[reasonCode]) return REASONS[reasonCode];
  return BY_STATUS[providerStatus] ?? null;
}
