import { parseFiscalCode } from '../../src/core/fiscal-code';
import { CompanyLookupUnavailableError, companyOf, type CompanyRecord } from '../company/types';
import { FieldValidationError } from '../lib/http-errors';
import type { StepRule } from './model';

/** "Am PFA" step 2 (fiscal code, rule `fiscal-code`) and step 3 ("Te-am găsit", rule `confirm-company`), spec 001 §2, §4 "Existing flow fiscal code", §7. */

/** Romanian messages of the two steps (shown under the fiscal-code field; spec 001 §8). */
export const COMPANY_MESSAGES = {
  format: 'Codul fiscal (CUI/CIF) are între 2 și 10 cifre, cu sau fără „RO” în față.',
  checkDigit: 'Cifra de control a CUI-ului nu este corectă. Verifică dacă ai scris codul fiscal corect.',
  notFound: 'Nu am găsit nicio firmă cu acest CUI. Verifică dacă l-ai scris corect.',
  notPfa: (product: string, company: CompanyRecord) =>
    company.legal_form
      ? `${product} este doar pentru PFA-uri (persoane fizice autorizate), iar acest CUI aparține unei firme de tip ${company.legal_form} (${company.name}).`
      : `${product} este doar pentru PFA-uri (persoane fizice autorizate), iar acest CUI (${company.name}) nu aparține unui PFA.`,
  noCompany: 'Nu am găsit încă firma ta. Întoarce-te la pasul anterior și introdu codul fiscal.',
} as const;

function fiscalCodeError(message: string): FieldValidationError {
  return new FieldValidationError({ fiscal_code: [message] }, message);
}

/**
 * `POST /api/registration/existing/collect/company` `{ fiscal_code }`: the CUI is normalised (blanks,
 * `RO`) and its check digit checked before anything is looked up. The CUI the request already holds
 * with its company goes straight on without a lookup (spec 001 §4: "if the CUI is unchanged, go to
 * the next step"); any other is looked up and must be a PFA. Keeps `fiscal_code` (digits) and
 * `company`; a new company is not confirmed yet. Every refusal is a 422 on `fiscal_code` with the
 * message the browser shows under the field — the lookup service being down too (spec 001 §8).
 */
export const collectCompany: StepRule = async ({ app, body, request }) => {
  const parsed = parseFiscalCode(typeof body.fiscal_code === 'string' ? body.fiscal_code : '');
  if (!parsed.ok) throw fiscalCodeError(parsed.reason === 'format' ? COMPANY_MESSAGES.format : COMPANY_MESSAGES.checkDigit);
  const cui = parsed.digits;

  const kept = companyOf(request.formData);
  if (kept && kept.fiscal_code === cui && request.formData.fiscal_code === cui) return { fiscal_code: cui, company: kept };

  let company: CompanyRecord | null;
  try {
    company = await app.companies.lookup(cui);
  } catch (error) {
    if (!(error instanceof CompanyLookupUnavailableError)) throw error;
    app.log.warn({ provider: app.companies.name, detail: error.detail }, 'company lookup unavailable');
    throw fiscalCodeError(error.message);
  }
  if (!company) throw fiscalCodeError(COMPANY_MESSAGES.notFound);
  if (!company.is_pfa) throw fiscalCodeError(COMPANY_MESSAGES.notPfa(app.config.productName, company));
  return { fiscal_code: cui, company, company_confirmed_at: null };
};

/** `POST /api/registration/existing/confirm/company`: "Te-am găsit" confirms the company found at step 2. */
export const confirmCompany: StepRule = async ({ request }) => {
  const company = companyOf(request.formData);
  if (!company || !company.is_pfa || company.fiscal_code !== request.formData.fiscal_code) {
    throw new FieldValidationError({ company: [COMPANY_MESSAGES.noCompany] }, COMPANY_MESSAGES.noCompany);
  }
  return { company_confirmed_at: new Date().toISOString() };
};
