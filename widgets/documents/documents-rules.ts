// The documents step's rules (spec 001 §4 "Diploma", "Driver licence"): which licence block an
// activity shows and which answers it offers; `documentsValue` (useDocumentsValue.ts) says when "next" may be pressed.

/**
 * Form data of the documents step (schemas/documents.json). `send_diploma_later` and
 * `driver_license_status` are sent; the other keys only drive the browser's "next":
 * `diplomas_ready` (send later, or a diploma saved or chosen) and `licence_ready` (no licence
 * block, or it is answered, with a file for "upload now") must be true, and the chosen files'
 * names under `files` / `driverLicenseFiles` change with them (which clears their server errors).
 */
export interface DocumentsData {
  send_diploma_later?: boolean;
  driver_license_status?: 0 | 1 | 2 | null;
  diplomas_ready?: boolean;
  licence_ready?: boolean;
  files?: string[];
  driverLicenseFiles?: string[];
}

export type Licence = 'courier' | 'taxi' | 'credit-certificate' | null;
export type LicenceStatus = 0 | 1 | 2;

export interface DocumentsOptions {
  /** Locale keys of the block's heading and text (the activity's variant changes them). */
  heading?: string;
  text?: string;
  licence?: Licence;
  creditPartner?: boolean;
}

/** The licence block shows for the activity's licence, except under the credit partner. */
export function hasLicenceBlock(options: DocumentsOptions): boolean {
  const licence = options.licence ?? null;
  const creditPartner = options.creditPartner === true;
  return licence !== null && !creditPartner;
}

/** The licence answer to send: the credit partner always 1 (sent later), else the stored answer while the block shows. */
export function licenceStatus(options: DocumentsOptions, stored: unknown): LicenceStatus | null {
  const creditPartner = options.creditPartner === true;
  const licenceBlock = hasLicenceBlock(options);
  return creditPartner ? 1 : licenceBlock ? (stored === 0 || stored === 1 || stored === 2 ? stored : null) : null;
}

/** The answers offered: upload now (2), send later (1) and, for couriers only, no licence (0). */
export function licenceChoices(licence: Licence): LicenceStatus[] {
  return [2, 1, ...(licence === 'courier' ? [0 as const] : [])];
}

/** The locale key part of the block's heading and text (`courierHeading`, `creditHeading`, …). */
export function licenceCopy(licence: Exclude<Licence, null>): string {
  return licence === 'credit-certificate' ? 'credit' : licence;
}
