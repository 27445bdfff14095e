/**
 * What custom widgets and fields receive from the engine through rjsf's `formContext`: services
 * instead of imports, so widgets never reach into the app and are testable with fakes.
 */
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

export interface StepServices {
  /** Translates a locale key (`steps:card.yes`); `{{product}}` is filled in. */
  t(key: string, vars?: Record<string, unknown>): string;
  /** The questionnaire's options for the user's registration type. */
  lostReasons(): Promise<LostReason[]>;
  activities(): Promise<Activity[]>;
  maritalStatuses(): Promise<MaritalStatus[]>;
}

export interface StepFormContext {
  services: StepServices;
  /** Identifier of the step being shown; its heading has the id `<stepId>-title`. */
  stepId: string;
}

/** Reads the engine's context from an rjsf registry. */
export function stepContext(registry: { formContext?: unknown }): StepFormContext {
  return registry.formContext as StepFormContext;
}
