/**
 * What custom widgets and fields receive from the engine through rjsf's `formContext`: services
 * instead of imports, so widgets never reach into the app and are testable with fakes.
 */
import type { ComponentType } from 'react';
import type { City, CompanyInfo, County, MailingAddress, OfficeService, Profile, RegistrationRequest } from '@/core/api-types';

export interface Activity {
  id: number;
  code: string;
  name: string;
  is_primary: boolean;
}

export interface LostReason {
  identifier: string;
  fe_text: string;
  fe_subtext: string | null;
}

export interface MaritalStatus {
  id: number;
  code: string;
  display_name: string;
  display_description: string;
  is_default: boolean;
}

/** Counties and cities of the nomenclature (`GET /api/nomenclature/county|city/index/{offset}/{limit}`). */
export type { City, County } from '@/core/api-types';

/** County and city lookups for the address pickers (spec 000 §9: counties limit 42, cities paged 25). */
export interface PlacesService {
  counties(search?: string): Promise<County[]>;
  cities(countyId: number, offset: number, limit: number, search?: string): Promise<{ data: City[]; total: number }>;
}

/** The address form's values (spec 000 §5 "Address form"); `POST /api/registration/update-user-info`. */
export interface AddressValues {
  first_name: string;
  last_name: string;
  county_id: number | null;
  city_id: number | null;
  street: string;
  number: string;
  building: string;
  entrance: string;
  floor: string;
  apartment: string;
  postal_code: string;
  place_of_birth: string;
}

/** The profile of a request as the server returns it (identity data and home address). */
export type { Profile } from '@/core/api-types';

/** Upload contexts of an identity session, in their order (spec 000 §3 "Identity session"). */
export const IDENTITY_CONTEXTS = ['document-front', 'document-back', 'face'] as const;
export type IdentityContext = (typeof IDENTITY_CONTEXTS)[number];

/** 1 pending (collecting uploads), 2 approved, 3 rejected, 4 submitted (spec 000 §4.4). */
export type IdentityStatus = number;

export interface IdentityUpload {
  file_id: number;
  /** Owner-only URL of the stored image (`GET /api/files/{id}`), fetched with the bearer token. */
  preview_url: string;
}

/** `GET /api/veriff/get-last-session` (null when the user has none). */
export interface IdentitySession {
  session_id: string;
  custom_id: string;
  status: IdentityStatus;
  submitted: boolean;
  uploads: Record<IdentityContext, IdentityUpload | null>;
}

/** A failed identity call: the HTTP status, the server's message and code (e.g. VERIFF_SESSION_NOT_FOUND). */
export interface IdentityError {
  status: number;
  message: string;
  code?: string;
  fieldErrors?: Record<string, string[]>;
}

/** The identity provider's calls (spec 001 §7 "Identity verification provider calls"). */
export interface IdentityService {
  lastSession(): Promise<IdentitySession | null>;
  createSession(): Promise<{ session_id: string; custom_id: string }>;
  upload(sessionId: string, context: IdentityContext, file: Blob, fileName: string, onProgress?: (fraction: number) => void): Promise<IdentityUpload>;
  submit(sessionId: string): Promise<void>;
  status(sessionId: string, customId: string): Promise<IdentityStatus>;
  error(sessionId: string, customId: string): Promise<{ code: string | number | null; translated_reason: string | null }>;
  deleteSession(sessionId: string, customId: string): Promise<void>;
  /** An object URL of an owner-only image (fetched with the bearer token). */
  preview(url: string): Promise<string>;
  /** A single-use link that opens `redirect` (a route name) signed in on another device. */
  autoLoginLink(redirect: string): Promise<string>;
  /** Saves the home address and place of birth; resolves to the updated profile; rejects with field errors. */
  saveAddress(values: AddressValues): Promise<Profile>;
}

/** A saved file of the request (`media` entries): owner-only URL fetched with `identity.preview`. */
export interface MediaFile {
  id: number;
  url: string;
}

/** The correspondence address (spec 001 §3 "Mailing address"). */
export type { MailingAddress } from '@/core/api-types';

/** The values `POST /api/mailing-address` takes. */
export type MailingAddressValues = Omit<MailingAddress, 'county' | 'city' | 'county_id' | 'city_id'> & { county_id: number | null; city_id: number | null };

/** A branch office of the credit partner (`GET /api/nomenclature/icredit-office/index?county_id`). */
export interface BranchOffice {
  id: number;
  county_id: number;
  name: string;
  address: string;
  name_formatted: string;
}

/** Calls of the dossier steps (spec 001 §7) that are not the step's own submit. */
export interface DossierService {
  /** Deletes the saved signature (`…/delete/signature` of the user's flow). */
  deleteSignature(): Promise<void>;
  /** Saves the custom correspondence address; resolves to it as saved; rejects with field errors. */
  saveMailingAddress(values: MailingAddressValues): Promise<MailingAddress>;
  /** The credit partner's branch offices in a county. */
  branchOffices(countyId: number): Promise<BranchOffice[]>;
  /** Deletes a saved document of the documents step (`POST /api/registration/delete/diploma-documents`). */
  deleteDocument?(fileId: number): Promise<void>;
  /** Records that the power-of-attorney screen was seen (`POST /api/user-meta/attorney-acknowledgement`). */
  acknowledgeAttorney?(): Promise<void>;
}

/** A CAEN class (`GET /api/nomenclature/code/index/{offset}/{size}?search_term`). */
export interface CaenCode {
  id: number;
  code: string;
  name: string;
  /** In a search's answer: the old CAEN Rev.2 codes (matching the search) this code replaces. */
  replaces?: string[];
  /** A request's code still in CAEN Rev.2 (it split): the Rev.3 classes the applicant chooses among. */
  replaced_by?: Array<{ id: number; code: string; name: string }>;
}

/** What the overview step shows besides the profile (`GET /api/registration/overview`). */
export interface OverviewData {
  company_name: string | null;
  activity: string | null;
  /** The request's codes, primary first (spec 001 §3 "CAEN code"). */
  codes: Array<CaenCode & { is_primary: 0 | 1 }>;
  email: string;
  phone: string;
  editable: boolean;
}

/** One or more inline edits of the overview (`POST /api/registration/update/form-data`); `codes` are ids, primary first. */
export interface OverviewUpdate {
  first_name?: string;
  last_name?: string;
  personal_code?: string;
  codes?: number[];
}

/**
 * The overview step's calls (spec 001 §7): CAEN search (pages of 25), its data, inline edits
 * (rejects with `{ status, message, fieldErrors }`), and leaving (mark-as-lost).
 */
export interface CaenService {
  search(term: string, offset: number, size: number): Promise<{ data: CaenCode[]; total: number }>;
  overview(): Promise<OverviewData>;
  updateFormData(values: OverviewUpdate): Promise<{ profile: Profile; codes: OverviewData['codes'] }>;
  markAsLost(reason: string): Promise<void>;
  /** The services the office popup offers instead of the product (`GET /api/nomenclature/office-services`). */
  officeServices?(): Promise<OfficeService[]>;
}

/**
 * What a widget module may ask for ahead (its `prefetch` export, `WidgetModule`): the step page asks
 * while the step's request is on its way (src/pages/flow/step-services.ts `stepAhead`, through the
 * app's one way of fetching ahead: src/shared/api/ahead.ts), and the widget's service call, once it
 * mounts, takes that answer:
 * - the option lists of the nomenclatures (`StepServices.lostReasons`, …), the same for every applicant;
 * - `lastIdentitySession`, the applicant's last identity session: the identity service's next
 *   `lastSession()` takes that answer, once (later calls ask again). The flow's step page asks it
 *   ahead when it opens (src/pages/flow/FlowStepsPage.tsx); the wizard's preload of the request's
 *   current step does not (the widget mounts right after);
 * - `overview`, the overview step's data (`caen.overview()`), likewise.
 * The answer each call resolves to is not for the widget: it only says the call was made.
 */
export interface StepLists {
  lostReasons(): Promise<unknown>;
  activities(): Promise<unknown>;
  maritalStatuses(): Promise<unknown>;
  lastIdentitySession?(): Promise<unknown>;
  overview?(): Promise<unknown>;
}

/**
 * A module of widgets/names.json: its component, and optionally `prefetch`, which asks for the lists
 * it draws with (a step's widgets are preloaded with its request: widgets/registry.ts). Without it the
 * widget asks once it has mounted, one round trip after the request.
 */
export interface WidgetModule {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- rjsf's WidgetProps and FieldProps alike
  default: ComponentType<any>;
  prefetch?(lists: StepLists): Promise<unknown>;
}

export interface StepServices {
  /** Translates a locale key (`steps:card.yes`); `{{product}}` is filled in. */
  t(key: string, vars?: Record<string, unknown>): string;
  /** The questionnaire's options for the user's registration type. */
  lostReasons(): Promise<LostReason[]>;
  activities(): Promise<Activity[]>;
  maritalStatuses(): Promise<MaritalStatus[]>;
  places: PlacesService;
  identity: IdentityService;
  dossier: DossierService;
  caen: CaenService;
  /** Reloads the whole page (the identity step, 3 s after its session was deleted elsewhere: spec 000 §4.4). */
  reloadPage(): void;
  /** The terms and privacy pages of the brand settings (consents, the identity step's privacy note). */
  legal?: { termsUrl: string; privacyUrl: string };
  /** A toast (5 s, top end); optional so tests and previews may leave it out. */
  notify?(type: 'success' | 'error' | 'info', text: string): void;
}

export interface StepFormContext {
  services: StepServices;
  /** Identifier of the step being shown; its heading has the id `<stepId>-title`. */
  stepId: string;
  /** The request's profile (identity data and home address) as last loaded. */
  profile: Profile;
  /**
   * Leaves the wizard for a named route of src/core/routes.ts (`register-questionnaire-info`)
   * through the app's router, as a submit branch's `navigate` does. Widgets never touch `window.location`.
   */
  navigate(routeName: string): void;
  /** Reloads the request from the server (profile, media, current step); the step re-renders with it. */
  reloadRequest(): Promise<void>;
  /** The request's saved files by name (`signature_document`, `veriff_document_front`, …). */
  media: Record<string, MediaFile | MediaFile[] | null | undefined>;
  /** The request's correspondence address, when one was saved. */
  mailingAddress: MailingAddress | null;
  /**
   * A file to send with the step's multipart submit (`submit.encoding: "multipart"`) under `field`
   * (the signature's `file`); null takes it back.
   */
  attachFile(field: string, file: Blob | null, fileName?: string): void;
  /**
   * Runs before the step submits; resolving false holds the submit back (the documents step shows
   * the power-of-attorney screen on the first press of next). null removes it.
   */
  setSubmitGuard(guard: (() => Promise<boolean> | boolean) | null): void;
  /**
   * Holds "Pasul următor" disabled for a reason the widget gives in its words (identity: the home
   * address is still missing; overview: no primary CAEN code): shown beside the buttons and linked
   * to the button by `aria-describedby`. null releases it.
   */
  blockNext?(reason: string | null): void;
  /** Clears the step's server error of a field the widget saved by itself (the overview's `codes`). */
  clearServerError?(field: string): void;
  /** 0..1 while a multipart submit uploads, else null. */
  uploadProgress: number | null;
  /** True while the step is being submitted. */
  submitting: boolean;
  /** The applicant's partner with its prices (the pricing step). */
  partner: PartnerOffer;
  /** The existing PFA found by its fiscal code ("Te-am găsit"), null before. */
  company: CompanyInfo | null;
  /** Leaves the app for another site (an office popup's service), as the pricing step leaves for the payment page. */
  leaveFor(url: string): void;
}

export type { OfficeService } from '@/core/api-types';

/** The applicant's partner and its prices (`partner` of the request); `stripe_id` is what the pricing step submits. */
export type PartnerOffer = Pick<RegistrationRequest['partner'], 'name' | 'is_unaffiliated' | 'description' | 'footnote' | 'prices'>;
export type { CompanyCaen, CompanyInfo, PartnerPrice as PartnerPriceOffer } from '@/core/api-types';

/** Reads the engine's context from an rjsf registry. */
export function stepContext(registry: { formContext?: unknown }): StepFormContext {
  return registry.formContext as StepFormContext;
}
