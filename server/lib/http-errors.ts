import type { FastifyError } from 'fastify';
import type { FieldErrors } from '../../src/core/api-types';
import { messages, type Language } from '../messages';
import { ro } from '../messages/ro';

/** A 422 answer: `{ message, payload: { field: [messages] } }` (DESIGN.md "API conventions"). */
export class FieldValidationError extends Error {
  readonly statusCode = 422;
  constructor(
    readonly fields: FieldErrors,
    message = ro.envelope.invalid,
    /** The schema's failures the fields were made from: the error handler words them in the request's language. */
    readonly issues?: unknown[],
  ) {
    super(message);
  }
}

/** Any other error with a status and a Romanian message for the user. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly payload: unknown = null,
    /** What failed underneath (logged with a 5xx, never sent). */
    cause?: unknown,
  ) {
    super(message, cause === undefined ? undefined : { cause });
  }
}

export const unauthorized = () => new HttpError(401, ro.envelope.unauthorized);
export const forbidden = () => new HttpError(403, ro.envelope.forbidden);
export const notFound = (message = ro.envelope.notFound) => new HttpError(404, message);

interface AjvIssue {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
}

/** Turns Fastify's (ajv's) validation errors into `{ field: [messages] }` (server/messages/, Romanian by default). */
export function fieldErrorsFromValidation(error: Pick<FastifyError, 'validation'>, language: Language = 'ro'): FieldErrors {
  const { validation: KEYWORDS, fields: FIELDS } = messages(language);
  const fields: FieldErrors = {};
  for (const issue of (error.validation ?? []) as AjvIssue[]) {
    // An if/then failure is reported again by the rule that failed inside `then`.
    if (issue.keyword === 'if') continue;
    let field = issue.instancePath.replace(/^\//, '').replace(/\//g, '.');
    if (issue.keyword === 'required') {
      const missing = String(issue.params.missingProperty ?? '');
      field = field ? `${field}.${missing}` : missing;
    }
    if (issue.keyword === 'additionalProperties') {
      field = String(issue.params.additionalProperty ?? field);
    }
    if (!field) field = '_';
    const leaf = field.split('.').pop() ?? field;
    const keyword = Object.prototype.hasOwnProperty.call(KEYWORDS, issue.keyword) ? (issue.keyword as keyof typeof KEYWORDS) : 'other';
    const message = FIELDS[leaf]?.[issue.keyword] ?? KEYWORDS[keyword](issue.params);
    const messages = (fields[field] ??= []);
    if (!messages.includes(message)) messages.push(message);
  }
  return fields;
}
