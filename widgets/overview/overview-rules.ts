import type { CaenCode, OverviewData } from '../types';

/** Office type (spec 001 §4): 1 at the product, 2 at home. */
export type AddressType = 1 | 2;

/** Where leaving for the competitor services ends: the questionnaire's dead-end info page (a route name). */
export const LEAVE_ROUTE = 'register-questionnaire-info';
export const LEAVE_REASON = 'sediu-la-client';
/** At most 5 CAEN codes (spec 001 §5). */
export const MAX_CODES = 5;

export type ProfileField = 'last_name' | 'first_name' | 'personal_code';

/** The first message the server gave for a field (`payload.field[0]`, or `payload.value[0]`), else its message. */
export function serverMessage(error: unknown, field: string, fallback: string): string {
  const e = error as { fieldErrors?: Record<string, string[]>; message?: string } | null;
  return e?.fieldErrors?.[field]?.[0] ?? e?.fieldErrors?.value?.[0] ?? (e?.message || fallback);
}

export const plain = (codes: OverviewData['codes']): CaenCode[] => codes.map(({ id, code, name }) => ({ id, code, name }));
