/** Registration types (spec 000 §3, §9). */
export const RegistrationType = {
  existingCompany: 1,
  requestingCompany: 2,
} as const;
export type RegistrationTypeValue = (typeof RegistrationType)[keyof typeof RegistrationType];

export function isRegistrationType(value: unknown): value is RegistrationTypeValue {
  return value === 1 || value === 2;
}

/** Base route of each flow's wrapper. */
export const FLOW_BASE_PATH: Record<RegistrationTypeValue, string> = {
  1: '/inregistrare',
  2: '/infiintare-pfa',
};

/** Route name of each flow's wrapper. */
export const FLOW_ROUTE_NAME: Record<RegistrationTypeValue, 'existing-company' | 'requesting-company'> = {
  1: 'existing-company',
  2: 'requesting-company',
};

/** Validation constants shared by the browser hints and the server rules (spec 000 §2.3, §5). */
export const PASSWORD_MIN_LENGTH = 6;
export const PHONE_PATTERN = '^07[0-9]{8}$';
export const PHONE_RE = new RegExp(PHONE_PATTERN);
/** Partner dropdown mode from this many partners on (spec 000 §9). */
export const PARTNER_DROPDOWN_THRESHOLD = 7;
/** Dashboard-redirect cookie lifetime (spec 000 §4.5, §9). */
export const DASHBOARD_REDIRECT_COOKIE_SECONDS = 5 * 60;
/** Single-use auto-login links (QR hand-over) live this long (spec 000 §4.4). */
export const AUTO_LOGIN_LINK_TTL_SECONDS = 10 * 60;
/** Payment confirmation pages poll the request this often (spec 001 §9). */
export const PAYMENT_POLL_MS = 5000;
/** The purchase event's value and currency (spec 001 §9: "Purchase tracking value 119, currency RON"). */
export const PURCHASE_VALUE = 119;
export const PURCHASE_CURRENCY = 'RON';
