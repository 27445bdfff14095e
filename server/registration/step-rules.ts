import type { StepRule } from './model';
import { questionnaire } from './rules/questionnaire';
import { activity } from './rules/activity';
import { civilStatus } from './rules/civil-status';
import { identity } from './rules/identity';
import { partnerPrice } from './rules/partner-price';
import { signatureRule } from './signature';
import { icreditOffice, mailingAddressType } from './mailing';
import { sendRule } from './overview';
import { documentsRule } from './documents';
import { collectCompany, confirmCompany } from './company';

/**
 * The server's step rules by the name a flow step gives in `"rule"` (flows/*.json). A step without
 * a rule has only its JSON Schema; `flows:check` refuses a name that is not here.
 */
export const STEP_RULES: Readonly<Record<string, StepRule>> = {
  questionnaire,
  identity,
  activity,
  documents: documentsRule,
  'civil-status': civilStatus,
  signature: signatureRule,
  'mailing-address-type': mailingAddressType,
  'icredit-office': icreditOffice,
  send: sendRule,
  'partner-price': partnerPrice,
  'fiscal-code': collectCompany,
  'confirm-company': confirmCompany,
};

/** The rule a step names, or undefined (a step without one, or an unknown name, which flows:check and the registry refuse). */
export function ruleOf(step: { rule?: string }): StepRule | undefined {
  return step.rule !== undefined && Object.hasOwn(STEP_RULES, step.rule) ? STEP_RULES[step.rule] : undefined;
}
