import type { CaenCode, OverviewData } from '../types';

/** Office type (spec 001 §4): 1 at the product, 2 at home. */
export type AddressType = 1 | 2;

/** The overview step's `ui:options` (the flow file says them: flows/new-pfa.json). */
export interface OverviewOptions {
  /** Codes preset and locked (the credit partner: 8291, 6619), first and in this order. */
  lockedCodes?: string[];
  /** How many codes (spec 001 §5: 5). */
  maxCodes?: number;
  /** The lost reason kept when the applicant leaves for an office at home (`sediu-la-client`). */
  leaveReason?: string;
  /** Operators add the codes (activity unknown): the block is read-only. */
  codesByOperator?: boolean;
}

export type ProfileField = 'last_name' | 'first_name' | 'personal_code';

/** The first message the server gave for a field (`payload.field[0]`, or `payload.value[0]`), else its message. */
export function serverMessage(error: unknown, field: string, fallback: string): string {
  const e = error as { fieldErrors?: Record<string, string[]>; message?: string } | null;
  return e?.fieldErrors?.[field]?.[0] ?? e?.fieldErrors?.value?.[0] ?? (e?.message || fallback);
}

export const plain = (codes: OverviewData['codes']): CaenCode[] =>
  codes.map(({ id, code, name, replaced_by }) => (replaced_by ? { id, code, name, replaced_by } : { id, code, name }));
