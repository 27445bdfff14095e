/** Upload contexts of an identity session, in the order they are taken (spec 000 §3, §4.4). */
export const IDENTITY_CONTEXTS = ['document-front', 'document-back', 'face'] as const;
export type IdentityContext = (typeof IDENTITY_CONTEXTS)[number];

/** How the spec names each context in its messages (spec 000 §8 "Upload failure"). */
export const CONTEXT_NAMES: Record<IdentityContext, string> = {
  'document-front': 'fața buletinului',
  'document-back': 'spatele buletinului',
  face: 'selfie',
};

/** Identity session status numbers (spec 000 §4.4). */
export const IdentityStatus = {
  /** created, collecting uploads */
  created: 1,
  approved: 2,
  /** declined, resubmission requested, expired or abandoned */
  rejected: 3,
  /** submitted, waiting for a decision */
  submitted: 4,
} as const;
export type IdentityStatusValue = (typeof IdentityStatus)[keyof typeof IdentityStatus];

/** What an approved document says, in the keys of the request's profile. */
export interface IdentityPerson {
  first_name: string | null;
  last_name: string | null;
  /** CNP, the Romanian personal numeric code. */
  personal_code: string | null;
  place_of_birth: string | null;
  /** YYYY-MM-DD */
  date_of_birth: string | null;
  /**
   * The home address as the document writes it ("Com. Albac, Sat Rogoz nr. 12, Jud. Alba"), when
   * the provider reads it (Veriff: `person.addresses[].fullAddress`, with address extraction on).
   * Matched to the register by address-match.ts.
   */
  address: string | null;
}

/** A provider's final word on a session. */
export interface IdentityDecision {
  status: typeof IdentityStatus.approved | typeof IdentityStatus.rejected;
  /** The provider's own status word: approved, declined, resubmission_requested, expired, abandoned. */
  providerStatus: string;
  /** The provider's decision code (Veriff: 9001, 9102, 9103, 9104, 9121). */
  code: number | null;
  reasonCode: number | null;
  /** Why it was not approved, in Romanian; null when unknown. */
  reason: string | null;
  person: IdentityPerson | null;
  decidedAt: Date;
}

export interface IdentityMedia {
  context: IdentityContext;
  data: Buffer;
  /** Detected from the bytes (image/jpeg, image/png, image/webp, image/heic, image/heif). */
  contentType: string;
  fileName: string;
}

/**
 * An identity verification provider with Veriff's life cycle: create a session, upload media per
 * context, submit, read the decision, delete. Implemented by the Veriff client and the simulator.
 */
export interface IdentityProvider {
  readonly name: 'veriff' | 'simulator';
  /** `vendorData`: a non-semantic id of ours that the provider hands back (the session's custom_id). */
  createSession(input: { vendorData: string }): Promise<{ sessionId: string }>;
  uploadMedia(sessionId: string, media: IdentityMedia): Promise<void>;
  /** Marks the session submitted: the provider starts deciding. */
  submit(sessionId: string): Promise<void>;
  /** The decision, or null while there is none yet. */
  decision(sessionId: string): Promise<IdentityDecision | null>;
  deleteSession(sessionId: string): Promise<void>;
}

/** A provider call that failed (network, timeout, HTTP error, unexpected answer). */
export class IdentityProviderError extends Error {
  constructor(
    message: string,
    readonly status: number | null = null,
  ) {
    super(message);
  }
}
