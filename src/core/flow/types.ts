/**
 * The flow file (DESIGN.md "The flow file"): one JSON file per wizard, read by the browser's step
 * runner and by the API server. `flows/flow.schema.json` is the authoritative description of
 * every field; these types mirror it.
 */
import type { RegistrationTypeValue } from '../registration';

/** A declarative condition on the request (partner, activity) and the form data. */
export type Condition =
  | { all: Condition[] }
  | { any: Condition[] }
  | { not: Condition }
  | { partner: string | string[] }
  | { activity: string | string[] }
  | { unaffiliated: boolean }
  | { paid: boolean }
  | FieldCondition;

export interface FieldCondition {
  /** JSON pointer into the form data, e.g. "/is_married" or "/reasons". */
  field: string;
  equals?: unknown;
  in?: unknown[];
  contains?: unknown;
  empty?: boolean;
}

/**
 * How form data becomes the request body: each key of the body maps to a JSON pointer into the
 * form data ("/activity_id"), to "$step" (the current step identifier), or to a literal
 * (`{ "const": value }`).
 */
export type PayloadMapping = Record<string, string | { const: unknown }>;

export interface SubmitBranch {
  /** Taken instead of the step's own submit when the condition holds. */
  when: Condition;
  endpoint: string;
  method?: 'POST';
  payload: PayloadMapping;
  /** Named route to open after the branch succeeds. */
  navigate?: string;
}

export interface StepSubmit {
  method?: 'POST';
  endpoint: string;
  encoding?: 'json' | 'multipart';
  payload: PayloadMapping;
  /** Server side: where the validated body is kept in the request's form_data (form_data key -> body key). */
  store?: Record<string, string | null>;
  branches?: SubmitBranch[];
  /** Named route opened after the submit succeeds (the existing PFA's signature: "dashboard"). */
  navigate?: string;
  /** false: the submit keeps the data but the request stays at the step (the pricing step is left by the payment). */
  advance?: boolean;
  /** A second call after the submit, whose answer sends the browser elsewhere (the payment provider's page). */
  then?: SubmitThen;
}

export interface SubmitThen {
  endpoint: string;
  payload: PayloadMapping;
  /** JSON pointer into the answer's payload to the address to open ("/redirect_url"). */
  redirect: string;
}

export interface FlowStep {
  /** Route name and server step identifier, e.g. "requesting-company-step-2". */
  id: string;
  path: string;
  /** `$id` of a JSON Schema file in schemas/. */
  schema: string;
  /** The server's rule for the step beyond its schema (a name of server/registration/step-rules.ts). */
  rule?: string;
  uiSchema?: Record<string, unknown>;
  /** Locale keys of the step's copy. */
  title: string;
  /** The step's short name (a locale key), shown beside "Pasul X din N". */
  name?: string;
  copy?: Record<string, string>;
  /** Whether the step guard applies (spec: every step but the first of each flow). */
  guarded?: boolean;
  /** Include the step only when this holds. */
  when?: Condition;
  /** Set by a variant to drop the step. */
  skip?: boolean;
  /**
   * Set by a variant: the step is behind the applicant (the paid pricing step). Navigation skips it
   * like `skip`, but "Pasul X din N" still counts it, so the counter keeps the flow's length.
   */
  done?: boolean;
  /** Which issue/module implements the step's screen; "pending" steps show a notice until then. */
  status?: 'ready' | 'pending';
  submit: StepSubmit;
  /** Valid sample form data: used by the flow walker (Playwright) and the preview page. */
  examples?: Record<string, unknown>[];
}

/** A JSON merge patch (RFC 7386) on steps, keyed by step id. */
export interface Variant {
  id: string;
  description?: string;
  when: Condition;
  steps: Record<string, Partial<FlowStep> | null>;
}

export interface Flow {
  $schema?: string;
  id: string;
  registrationType: RegistrationTypeValue;
  basePath: string;
  title: string;
  /** Named route a paid request goes to instead of its steps (the new PFA's status page). */
  paidRoute?: string;
  api: { open: string; next: string; previous: string };
  steps: FlowStep[];
  variants?: Variant[];
}

/** What a variant and a condition are decided on. */
export interface FlowContext {
  partner: string | null;
  unaffiliated?: boolean;
  /** Whether the request's subscription is paid. */
  paid?: boolean;
  activity: string | null;
  formData: Record<string, unknown>;
}

/** The request's position, as the API returns it in `steps` (spec 000 §3). */
export interface StepsInfo {
  previous: { identifier: string } | null;
  current: { identifier: string; index: number };
  next: { identifier: string } | null;
  total: number;
}
