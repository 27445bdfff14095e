/**
 * Shapes of the API calls of spec 000 §7 (accounts area). Shared by the browser client and the
 * server's tests; the server's JSON Schemas are the enforcing contract.
 */
import type { RegistrationTypeValue } from './registration';
import type { SessionUser } from './session';
import type { PriceTerms } from './billing';

/** Every JSON response: `{ payload, message }` (DESIGN.md "API conventions"). */
export interface Envelope<T> {
  payload: T;
  message: string;
}

/** 422 body: `{ message, payload: { field: ["first message", ...] } }`. */
export type FieldErrors = Record<string, string[]>;

export interface Partner {
  id: number;
  name: string;
  slug: string;
  is_unaffiliated: boolean;
  /** Under the plan's price where the spec gives one (the credit partner's 130 → 72). */
  footnote?: string | null;
  /** The plan's prices (issue 17 item 5: shown on the register page). */
  prices?: PlanPrice[];
}

/** A plan's price on `GET /api/partner/index`: amounts in lei, its introductory phase or nulls. */
export interface PlanPrice extends PriceTerms {
  stripe_id: string;
  description: string;
}

export interface TrackedCookie {
  key: string;
  value: string;
}

export interface RegisterPayload {
  email: string;
  password: string;
  phone: string;
  referral_code: string | null;
  cookies: TrackedCookie[];
  marketing_accepted: boolean;
  registration_type: RegistrationTypeValue;
  partner_id: number;
}

export interface LoginPayload {
  email: string;
  password: string;
}

export interface AuthPayload extends LoginPayload {
  source: string;
  callbackUrl: string;
}

/** POST /api/auth answer: the browser goes to `redirect_url` (callbackUrl + id_token + access_token). */
export interface AuthResult {
  id_token: string;
  access_token: string;
  redirect_url: string;
}

export interface ResetPayload {
  password: string;
  password_confirmation: string;
}

export interface County {
  id: number;
  name: string;
  /** Two-letter vehicle code (B, CJ, IF, ...). */
  code: string;
}

export interface City {
  id: number;
  /** How the locality is written in an address: "Cluj-Napoca", "Rogoz, comuna Albac". */
  name: string;
  county_id: number;
  /** municipiu, oras, comuna, sat, sector */
  kind?: string;
  /** SIRUTA's postal code of the locality (villages), else null. */
  postal_code?: string | null;
}

/** Paged nomenclature answer: `payload: { data, total }`. */
export interface Page<T> {
  data: T[];
  total: number;
}

/** GET /api/config: public, non-secret runtime settings for the browser. */
export interface PublicConfig {
  product_name: string;
  product_slug: string;
  dashboard_url: string;
  support_widget_url: string | null;
  /** The product's main site (questionnaire info page); default from content/brand.json. */
  site_url: string;
  /** Where applicants write to (questionnaire info page, footer). */
  contact_email: string;
  /** Shown in the footer when set. */
  contact_phone: string | null;
  /** The brand's logo (an address or a path of this server). */
  logo_url: string;
  /** Terms and conditions, privacy policy: this server's pages (content/legal) or addresses elsewhere. */
  terms_url: string;
  privacy_url: string;
}

export interface OutboxMail {
  id: number;
  to: string;
  subject: string;
  text: string;
  html: string;
  links: string[];
  created_at: string;
}

export type { SessionUser };

/** A price of the request's partner (spec 000 §3 "partner ... prices[]"). */
export interface PartnerPrice {
  id: number;
  description: string;
  stripe_id: string;
  amount: number;
  currency: string;
  interval: string;
}

/** The correspondence address (spec 001 §3 "Mailing address"): `mailing_address` of a request. */
export interface MailingAddress {
  contact_first_name: string;
  contact_last_name: string;
  contact_phone: string | null;
  county_id: number;
  city_id: number;
  county: string;
  city: string;
  postal_code: string | null;
  street: string;
  number: string;
  building: string | null;
  entrance: string | null;
  floor: string | null;
  apartment: string | null;
}

/** An existing PFA as the fiscal-code lookup found it. */
export interface CompanyInfo {
  name: string;
  address: string | null;
  fiscal_code: string;
  registration_number?: string | null;
  /** The firm's main activity code as the registry gives it (ANAF `cod_CAEN`), four digits. */
  caen_code?: string | null;
  /** What that code means today (server/company/caen.ts); null without a code. */
  caen?: CompanyCaen | null;
}

/** A CAEN class named by its code and title. */
export interface CaenClass {
  code: string;
  name: string;
}

/**
 * A firm's main CAEN code read against both revisions (issue 31): `previous` (a Rev.2 class only) and
 * `ambiguous` (a class of both, with other meanings) need an update at the trade register;
 * `equivalents` are the CAEN Rev.3 classes of the Rev.2 class.
 */
export interface CompanyCaen {
  code: string;
  status: 'current' | 'previous' | 'ambiguous' | 'unknown';
  current: CaenClass | null;
  previous: CaenClass | null;
  equivalents: CaenClass[];
}

/**
 * The profile of a request as the server returns it (identity data and home address): what the
 * identity decision and the address form wrote (spec 001 §3). Every field may be missing. A type,
 * not an interface: a profile is also any record of strings (the staff console lists its fields).
 */
export type Profile = {
  first_name?: string | null;
  last_name?: string | null;
  personal_code?: string | null;
  place_of_birth?: string | null;
  county_id?: number | null;
  county?: string | null;
  city_id?: number | null;
  city?: string | null;
  street?: string | null;
  number?: string | null;
  building?: string | null;
  entrance?: string | null;
  floor?: string | null;
  apartment?: string | null;
  postal_code?: string | null;
  address_1?: string | null;
  address_2?: string | null;
  /** The home address as read from the identity card by the provider, when it read one (issue 31). */
  document_address?: string | null;
};

/** The wizard request as GET/POST registration/open and every step call return it. */
export interface RegistrationRequest {
  id: number;
  registration_type: 1 | 2;
  /** The server's current step identifier. */
  step: string;
  status: string;
  lost_reason: string | null;
  form_data: Record<string, unknown>;
  profile: Profile;
  media: Record<string, unknown>;
  paid: boolean;
  paid_at: string | null;
  created_at: string;
  /** The saved signature's file id (also `media.signature_document.id`). */
  signature_file_id: number | null;
  /** The card answer (spec 001 §3 existing request: 1, 0 or null), also at the top level. */
  ghiseu_card_requested: 0 | 1 | null;
  mailing_address: MailingAddress | null;
  status_timeline: unknown[];
  steps: import('./flow/types').StepsInfo;
  /** Ids of the flow variants that apply to the request. */
  variants: string[];
  /** The existing PFA found by its fiscal code (spec 001 §3 existing request "company"); null until then. */
  company?: CompanyInfo | null;
  partner: {
    id: number;
    name: string;
    slug: string;
    is_unaffiliated: boolean;
    description: string | null;
    footnote: string | null;
    prices: PartnerPrice[];
  };
}

/** A service the overview's office popup offers instead of the product (`GET /api/nomenclature/office-services`). */
export interface OfficeService {
  id: string;
  name: string;
  description: string | null;
  /** Where choosing it sends the applicant (https). */
  url: string;
}

/**
 * The marketing consent (issue 32): given with the registration's checkbox, withdrawn on "Datele tale"
 * (`DELETE /api/user/consents/marketing`, whose payload it is) or by the unsubscribe link. Times are ISO 8601.
 */
export interface MarketingConsent {
  /** Given and not withdrawn. */
  accepted: boolean;
  accepted_at: string | null;
  withdrawn_at: string | null;
}

/** The retention periods of the configuration (server/config.ts `retention`), as the page explains them. */
export interface RetentionPeriods {
  /** An unfinished application without activity for this long is erased with its account… */
  unfinished_days: number;
  /** …after a warning mail this many days before. */
  warning_days: number;
  /** ID photos and selfie: deleted this long after the dossier is finalized or rejected, or the existing PFA handed over. */
  id_media_days: number;
  /** A lost application: only the e-mail address is kept after this long. */
  lost_days: number;
  /** Payments (Legea contabilității nr. 82/1991). */
  accounting_years: number;
  /** The signed legal-assistance contract, after it ends. */
  contract_years: number;
}

/**
 * What an erasure would keep (server/privacy/erase.ts `KeptRecord`): the payments (accounting law), the
 * signed contract, a dossier filed with the trade register (kept there, not by the product).
 */
export interface KeptAfterErasure {
  kind: 'payment' | 'contract' | 'trade_register';
  count: number;
  /** YYYY-MM-DD; null when it is not ours to delete (the trade register). */
  keep_until: string | null;
}

/**
 * `GET /api/user/privacy` (issue 32, the "Datele tale" page `/contul-meu/date`): the signed-in
 * applicant's consents, the retention periods and what erasing the account would keep and why.
 */
export interface UserPrivacy {
  email: string;
  consents: {
    /** The terms and privacy policy accepted at registration: the texts' version (server/privacy/consents.ts) and when. */
    terms: { version: string; accepted_at: string } | null;
    marketing: MarketingConsent;
  };
  retention: RetentionPeriods;
  after_erasure: KeptAfterErasure[];
  /** How many exports (`GET /api/user/export`) an account may ask for per hour. */
  exports_per_hour: number;
}
