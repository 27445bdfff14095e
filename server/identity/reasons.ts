import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Why Veriff did not approve a session, in Romanian: the texts are product copy, kept with the
 * identity step's in `locales/ro/steps.json` under `identity.reasons` by Veriff's code (Veriff docs,
 * "Verification session decision codes" and "Granular reason codes"). The browser shows the same key
 * in the applicant's language (widgets/id-capture/useIdentitySession.ts); this is the API's
 * `translated_reason`. A decision without a known reason code falls back to its decision code.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const STEPS = path.join(root, 'locales/ro/steps.json');

/** Veriff's decision codes of the statuses that come without a reason code. */
const DECISION_CODES: Record<string, number> = { resubmission_requested: 9103, expired: 9104, abandoned: 9121 };

function readReasons(): Record<string, string> {
  const steps = JSON.parse(fs.readFileSync(STEPS, 'utf8')) as { identity?: { reasons?: Record<string, unknown> } };
  const reasons: Record<string, string> = {};
  for (const [code, text] of Object.entries(steps.identity?.reasons ?? {})) if (typeof text === 'string' && text.trim()) reasons[code] = text;
  return reasons;
}

const REASONS = readReasons();

/** The Romanian reason of a decision, or null when none is known (the browser shows its generic copy). */
export function romanianReason(reasonCode: number | null, providerStatus: string): string | null {
  if (reasonCode !== null && REASONS[reasonCode]) return REASONS[reasonCode];
  const decision = DECISION_CODES[providerStatus];
  return (decision !== undefined && REASONS[decision]) || null;
}
