import { searchKey } from '../../src/core/counties';

/**
 * Company lookup by fiscal code (spec 001 §2 "Fiscal code" and "Te-am găsit", §3 "Existing-company
 * request: company (name, address, fiscal_code)"): one interface, two implementations — the ANAF
 * public web service (`COMPANY_LOOKUP=anaf`) and the local registry seeded from
 * `server/db/seed/companies.json` (the default).
 */

/** A company as the wizard keeps it in `form_data.company` and returns it as the request's `company`. */
export interface CompanyRecord {
  /** The CUI, digits only (no `RO`). */
  fiscal_code: string;
  name: string;
  address: string;
  /** Trade register number (ONRC), e.g. `F12/345/2020`; null when unknown. */
  registration_number: string | null;
  /** Short legal form: `PFA`, `II`, `IF`, `SRL`, `SA`, … or the registry's own wording; null when unknown. */
  legal_form: string | null;
  /** A sole proprietorship (persoană fizică autorizată): the only kind the product takes. */
  is_pfa: boolean;
  county: string | null;
  city: string | null;
  /**
   * The main activity's CAEN code as the registry gives it (ANAF `date_generale.cod_CAEN`): four
   * digits, of CAEN Rev.2 or Rev.3 (the registry does not say which); null when unknown. What it
   * means today is read by `readCompanyCaen` (server/company/caen.ts) when the request is answered.
   */
  caen_code: string | null;
}

export interface CompanyLookup {
  readonly name: 'local' | 'anaf';
  /** The company with this CUI (normalised digits with a valid check digit), or null when there is none. */
  lookup(cui: string): Promise<CompanyRecord | null>;
}

/** The lookup service cannot answer now (ANAF down, slow or busy); `message` is the Romanian text for the user. */
export class CompanyLookupUnavailableError extends Error {
  constructor(
    message = 'Serviciul ANAF nu răspunde acum. Te rugăm să încerci din nou în câteva minute.',
    readonly detail?: string,
  ) {
    super(message);
    this.name = 'CompanyLookupUnavailableError';
  }
}

/** Upper case without diacritics or dots: what legal forms are recognised on. */
function plain(text: string): string {
  return searchKey(text).toUpperCase().replace(/\./g, '').replace(/\s+/g, ' ').trim();
}

const FORMS: Array<{ form: string; words: RegExp; suffix: RegExp }> = [
  { form: 'PFA', words: /PERSOANA FIZICA AUTORIZATA/, suffix: /\bPFA$/ },
  { form: 'II', words: /INTREPRINDERE INDIVIDUALA/, suffix: /\bII$/ },
  { form: 'IF', words: /INTREPRINDERE FAMILIALA/, suffix: /\bIF$/ },
  { form: 'SRL', words: /RASPUNDERE LIMITATA/, suffix: /\bSRL(?: ?D)?$/ },
  { form: 'SA', words: /PE ACTIUNI/, suffix: /\bSA$/ },
  { form: 'SNC', words: /IN NUME COLECTIV/, suffix: /\bSNC$/ },
  { form: 'SCS', words: /IN COMANDITA SIMPLA/, suffix: /\bSCS$/ },
];

/**
 * The short legal form of a company from what a registry says: its legal form in words (ANAF
 * `forma_juridica`, often empty for sole proprietorships) and else the end of its name, which the
 * law makes carry the form ("POPESCU ION PERSOANĂ FIZICĂ AUTORIZATĂ", "… PFA", "… SRL").
 */
export function legalFormOf(input: { legalForm?: string | null; name: string }): string | null {
  const stated = plain(input.legalForm ?? '');
  if (stated) {
    const known = FORMS.find((f) => f.words.test(stated) || f.suffix.test(stated));
    return known ? known.form : (input.legalForm ?? '').trim();
  }
  const name = plain(input.name);
  return FORMS.find((f) => f.words.test(name) || f.suffix.test(name))?.form ?? null;
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() ? value.trim() : null;
}

/**
 * A CAEN class code as four digits, or null: registries give it as a string ("6201"), sometimes as a
 * number or with its leading zero dropped ("111" for 0111), with a dot ("62.01"), or empty.
 */
export function normaliseCaenCode(value: unknown): string | null {
  let code = typeof value === 'number' && Number.isInteger(value) ? String(value) : typeof value === 'string' ? value.trim() : '';
  if (/^\d{1,2}\.\d{2}$/.test(code)) code = code.replace('.', '');
  if (!/^\d{3,4}$/.test(code)) return null;
  code = code.padStart(4, '0');
  return code === '0000' ? null : code;
}

/** The company kept in a request's form data, or null when there is none (or it is not a company record). */
export function companyOf(formData: Record<string, unknown>): CompanyRecord | null {
  const value = formData.company;
  if (!value || typeof value !== 'object' || Array.isArray(value)) return null;
  const c = value as Record<string, unknown>;
  const fiscalCode = text(c.fiscal_code);
  const name = text(c.name);
  if (!fiscalCode || !name) return null;
  return {
    fiscal_code: fiscalCode,
    name,
    address: text(c.address) ?? '',
    registration_number: text(c.registration_number),
    legal_form: text(c.legal_form),
    is_pfa: c.is_pfa === true,
    county: text(c.county),
    city: text(c.city),
    // Requests stored before the registry's code was kept have none.
    caen_code: normaliseCaenCode(c.caen_code),
  };
}
