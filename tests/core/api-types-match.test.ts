/**
 * The browser's hand-written API types against the server's contract, at the type level: `tsc`
 * (npm run typecheck) fails when a shape the browser reads an answer with no longer fits what the
 * operation answers (src/core/api-contract.ts, from the generated src/core/api-schema.d.ts), names
 * a field the answer does not have, or when a body the browser sends is not one the operation
 * takes. The checks are types; the `it` below checks that a wrong shape is caught.
 *
 * Each check: `Reads<BrowserType, 'operationId'>` for an answer (everything the server sends fits
 * the browser's type, and the browser names no field the server does not send; whether a field is
 * always sent is not in the contract, see `Sent`), `Sends<BrowserType, 'operationId'>` for a body.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { Answer, OperationId, RequestBody } from '../../src/core/api-contract';
import type {
  AuthPayload,
  AuthResult,
  City,
  County,
  LoginPayload,
  MarketingConsent,
  OfficeService,
  OutboxMail,
  Page,
  Partner,
  PublicConfig,
  RegisterPayload,
  RegistrationRequest,
  ResetPayload,
  UserPrivacy,
} from '../../src/core/api-types';
import type { SessionUser } from '../../src/core/session';
import type { BranchOffice, CaenCode, IdentitySession, IdentityUpload, LostReason, MaritalStatus, OverviewData } from '../../widgets/types';
import type { DossierAnswer, DossierPage, TimelineTypeSchema } from '../../src/pages/staff/console/api';

/**
 * The dotted paths of the fields `B` names that `A` does not have ('never' when there is none). An
 * optional field of `B` is one some answers lack (a CAEN code's `replaces`: only a search has it).
 */
type Unsent<B, A, P extends string = ''> = B extends readonly (infer BI)[]
  ? A extends readonly (infer AI)[]
    ? Unsent<BI, AI, `${P}[]`>
    : never
  : B extends object
    ? string extends keyof B
      ? never
      : A extends object
        ? { [K in keyof B & string]-?: K extends keyof A ? Unsent<NonNullable<B[K]>, NonNullable<A[K]>, `${P}.${K}`> : undefined extends B[K] ? never : `${P}.${K}` }[keyof B & string]
        : never
    : never;

/** Where `A` does not fit `B`: the dotted paths of the fields whose types differ. */
type Misfit<A, B, P extends string = ''> = A extends unknown
  ? [A] extends [B]
    ? never
    : A extends readonly (infer AI)[]
      ? Extract<B, readonly unknown[]> extends readonly (infer BI)[]
        ? Misfit<AI, BI, `${P}[]`>
        : P
      : A extends object
        ? [Extract<B, object>] extends [never]
          ? P
          : { [K in keyof Extract<B, object> & string]-?: K extends keyof A ? Misfit<A[K], Extract<B, object>[K], `${P}.${K}`> : undefined extends Extract<B, object>[K] ? never : `${P}.${K}` }[keyof Extract<B, object> & string]
        : P
  : never;

/**
 * An open schema (`{}`: anything) says nothing the browser's type could be checked against: it
 * reads as `any` here.
 */
type Said<T> = unknown extends T ? any : T extends readonly (infer U)[] ? Said<U>[] : T extends object ? { [K in keyof T]: Said<T[K]> } : T;

/** `true` when the browser reads operation `Op`'s answer as `B`; else what is wrong. */
type Reads<B, Op extends OperationId> = [Said<Answer<Op>>] extends [B]
  ? [Unsent<B, Answer<Op>>] extends [never]
    ? true
    : { operation: Op; fieldsTheServerDoesNotSend: Unsent<B, Answer<Op>> }
  : { operation: Op; answerDoesNotFitTheBrowserTypeAt: Misfit<Said<Answer<Op>>, B> };

/** `true` when the browser sends `B` as operation `Op`'s body; else what is wrong. */
type Sends<B, Op extends OperationId> = [B] extends [RequestBody<Op>]
  ? [Unsent<B, RequestBody<Op>>] extends [never]
    ? true
    : { operation: Op; fieldsTheServerDoesNotTake: Unsent<B, RequestBody<Op>> }
  : { operation: Op; bodyDoesNotFitTheServerAt: Misfit<B, RequestBody<Op>> };

/** A check that must hold: a type error names the operation and what is wrong. */
type Holds<T extends true> = T;

export type AccountChecks = [
  Holds<Reads<SessionUser, 'login'>>,
  Holds<Reads<SessionUser, 'register'>>,
  Holds<Reads<SessionUser & { redirect?: string | null }, 'autoLogin'>>,
  Holds<Reads<AuthResult, 'authenticateForPartner'>>,
  Holds<Reads<{ auto_login_link: string }, 'getAutoLoginLink'>>,
  Holds<Sends<LoginPayload, 'login'>>,
  Holds<Sends<AuthPayload, 'authenticateForPartner'>>,
  // The form sends `marketing_accepted: false` too when the box is not ticked: the server answers 422 (its `const: true`).
  Holds<Sends<Omit<RegisterPayload, 'marketing_accepted'> & { marketing_accepted: true }, 'register'>>,
  Holds<Sends<ResetPayload, 'resetPassword'>>,
];

export type RegistrationChecks = [
  Holds<Reads<RegistrationRequest, 'getNewPfaRequest'>>,
  Holds<Reads<RegistrationRequest, 'getExistingPfaRequest'>>,
  Holds<Reads<RegistrationRequest, 'submitRequestingCompanyStep2'>>,
  Holds<Reads<RegistrationRequest, 'saveMailingAddress'>>,
  Holds<Reads<RegistrationRequest, 'updateUserInfo'>>,
  Holds<Reads<OverviewData, 'getOverview'>>,
  Holds<Reads<{ registration_type: 1 | 2 }, 'markAsUnlost'>>,
];

export type IdentityChecks = [
  Holds<Reads<{ session_id: string; custom_id: string }, 'createIdentitySession'>>,
  Holds<Reads<IdentityUpload, 'uploadIdentityImage'>>,
  Holds<Reads<IdentitySession | null, 'getLastIdentitySession'>>,
  Holds<Reads<{ code: string | number | null; translated_reason: string | null }, 'getIdentityError'>>,
];

export type PaymentChecks = [Holds<Reads<{ redirect_url: string }, 'payCheckout'>>, Holds<Reads<{ redirect_url: string }, 'cancelCheckout'>>];

export type NomenclatureChecks = [
  Holds<Reads<Partner[], 'listPartners'>>,
  Holds<Reads<Page<County>, 'listCounties'>>,
  Holds<Reads<Page<City>, 'listCities'>>,
  Holds<Reads<{ data: MaritalStatus[] }, 'listMaritalStatuses'>>,
  Holds<Reads<LostReason[], 'listLostReasons'>>,
  Holds<Reads<{ data: BranchOffice[] }, 'listCreditOffices'>>,
  Holds<Reads<{ data: CaenCode[]; total: number }, 'listCaenCodes'>>,
  Holds<Reads<OfficeService[], 'listOfficeServices'>>,
];

export type OtherChecks = [
  Holds<Reads<PublicConfig, 'getPublicConfig'>>,
  Holds<Reads<UserPrivacy, 'getUserPrivacy'>>,
  Holds<Reads<MarketingConsent, 'withdrawMarketingConsent'>>,
  Holds<Reads<OutboxMail[], 'listOutbox'>>,
];

export type StaffChecks = [
  Holds<Reads<DossierPage, 'listStaffDossiers'>>,
  Holds<Reads<DossierAnswer, 'getStaffDossier'>>,
  Holds<Reads<TimelineTypeSchema[], 'listStaffTimelineTypes'>>,
];

describe('the browser’s API types match the generated contract', () => {
  it('is checked by tsc (npm run typecheck): the checks above are types', () => {
    // A check that does not hold is a type error; a wrong check (a true that should fail) is tested here.
    expectTypeOf<Reads<{ id: string }, 'listOpsDossiers'>>().not.toEqualTypeOf<true>();
    expectTypeOf<Reads<{ nothing: number }[], 'listOpsDossiers'>>().not.toEqualTypeOf<true>();
    expectTypeOf<Reads<{ id: number }[], 'listOpsDossiers'>>().toEqualTypeOf<true>();
    expectTypeOf<Sends<{ email: number }, 'login'>>().not.toEqualTypeOf<true>();
    expect(true).toBe(true);
  });
});
