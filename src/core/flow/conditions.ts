import { readPointer } from './pointer';
import type { Condition, FlowContext } from './types';

function isEmpty(value: unknown): boolean {
  return value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);
}

function oneOf(expected: string | string[], actual: string | null): boolean {
  return actual !== null && (Array.isArray(expected) ? expected.includes(actual) : expected === actual);
}

/** Decides a condition of a flow file (`when` of steps, variants and submit branches). */
export function evaluate(condition: Condition, context: FlowContext): boolean {
  if ('all' in condition) return condition.all.every((c) => evaluate(c, context));
  if ('any' in condition) return condition.any.some((c) => evaluate(c, context));
  if ('not' in condition) return !evaluate(condition.not, context);
  if ('partner' in condition) return oneOf(condition.partner, context.partner);
  if ('activity' in condition) return oneOf(condition.activity, context.activity);
  if ('unaffiliated' in condition) return Boolean(context.unaffiliated) === condition.unaffiliated;
  if ('paid' in condition) return Boolean(context.paid) === condition.paid;
  const value = readPointer(context.formData, condition.field);
  if ('equals' in condition && value !== condition.equals) return false;
  if (condition.in && !condition.in.includes(value)) return false;
  if ('contains' in condition && !(Array.isArray(value) && value.includes(condition.contains))) return false;
  if (condition.empty !== undefined && isEmpty(value) !== condition.empty) return false;
  return true;
}
