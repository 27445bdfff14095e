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
  /** The licence answer fixed by the flow (the credit partner's variant: 1): no licence block. */
  licenceStatus?: LicenceStatus;
  /** Whether "no licence" (0) is offered (the courier activity's variant). */
  noLicenceChoice?: boolean;
  /** Locale key of a note shown instead of the block (a credit consultant under the credit partner). */
  licenceNote?: string;
}

/** The licence block shows for the activity's licence, unless the flow fixes the answer. */
export function hasLicenceBlock(options: DocumentsOptions): boolean {
  return (options.licence ?? null) !== null && options.licenceStatus === undefined;
}

/** The licence answer to send: the one the flow fixes, else the stored answer while the block shows. */
export function licenceStatus(options: DocumentsOptions, stored: unknown): LicenceStatus | null {
  if (options.licenceStatus !== undefined) return options.licenceStatus;
  return hasLicenceBlock(options) && (stored === 0 || stored === 1 || stored === 2) ? stored : null;
}

/** The answers offered: upload now (2), send later (1) and, where the flow offers it (couriers), no licence (0). */
export function licenceChoices(options: Pick<DocumentsOptions, 'noLicenceChoice'>): LicenceStatus[] {
  return [2, 1, ...(options.noLicenceChoice ? [0 as const] : [])];
}

/** The locale key part of the block's heading and text (`courierHeading`, `creditHeading`, …). */
export function licenceCopy(licence: Exclude<Licence, null>): string {
  return licence === 'credit-certificate' ? 'credit' : licence;
}
