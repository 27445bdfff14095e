import type { FastifyError } from 'fastify';
import type { FieldErrors } from '../../src/core/api-types';

/** A 422 answer: `{ message, payload: { field: [messages] } }` (DESIGN.md "API conventions"). */
export class FieldValidationError extends Error {
  readonly statusCode = 422;
  constructor(
    readonly fields: FieldErrors,
    message = 'Datele trimise nu sunt valide.',
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

export const unauthorized = () => new HttpError(401, 'Sesiunea a expirat. Te rugăm să te autentifici din nou.');
export const forbidden = () => new HttpError(403, 'Nu ai acces la această resursă.');
export const notFound = (message = 'Resursa nu a fost găsită.') => new HttpError(404, message);

const DEFAULT_MESSAGES: Record<string, (params: Record<string, unknown>) => string> = {
  required: () => 'Câmpul este obligatoriu.',
  format: (p) => (p.format === 'email' ? 'Adresa de e-mail nu este validă.' : 'Formatul nu este valid.'),
  minLength: (p) => (p.limit === 1 ? 'Câmpul este obligatoriu.' : `Câmpul trebuie să aibă cel puțin ${String(p.limit)} caractere.`),
  maxLength: (p) => `Câmpul poate avea cel mult ${String(p.limit)} caractere.`,
  pattern: () => 'Formatul nu este valid.',
  type: () => 'Valoarea nu este validă.',
  enum: () => 'Valoarea nu este validă.',
  const: () => 'Valoarea nu este validă.',
  minimum: (p) => `Valoarea trebuie să fie cel puțin ${String(p.limit)}.`,
  maximum: (p) => `Valoarea poate fi cel mult ${String(p.limit)}.`,
  maxItems: (p) => `Sunt permise cel mult ${String(p.limit)} elemente.`,
  additionalProperties: () => 'Câmp necunoscut.',
};

/** Messages that read better than the default for a given field and rule. */
const FIELD_MESSAGES: Record<string, Record<string, string>> = {
  email: { required: 'Adresa de e-mail este obligatorie.', minLength: 'Adresa de e-mail este obligatorie.' },
  phone: {
    required: 'Numărul de telefon este obligatoriu.',
    pattern: 'Numărul de telefon trebuie să aibă formatul 07xxxxxxxx.',
  },
  password: { required: 'Parola este obligatorie.', minLength: 'Parola trebuie să aibă minim 6 caractere.' },
  password_confirmation: { required: 'Confirmă parola.' },
  marketing_accepted: {
    required: 'Trebuie să accepți termenii și condițiile.',
    const: 'Trebuie să accepți termenii și condițiile.',
    type: 'Trebuie să accepți termenii și condițiile.',
  },
  partner_id: { required: 'Alege tipul de abonament.', type: 'Alege tipul de abonament.' },
  registration_type: { required: 'Alege tipul de înregistrare.', enum: 'Alege tipul de înregistrare.' },
  callbackUrl: { required: 'Adresa de întoarcere lipsește.' },
  county_id: { required: 'Alege județul.', type: 'Alege județul.', minimum: 'Alege județul.' },
  city_id: { required: 'Alege localitatea.', type: 'Alege localitatea.', minimum: 'Alege localitatea.' },
  postal_code: { pattern: 'Codul poștal are 6 cifre.' },
  context: { enum: 'Tipul fotografiei nu este cunoscut.' },
  activity_details: {
    required: 'Descrie pe scurt activitatea pe care o vei avea.',
    pattern: 'Descrie pe scurt activitatea pe care o vei avea.',
    type: 'Descrie pe scurt activitatea pe care o vei avea.',
  },
};

interface AjvIssue {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
}

/** Turns Fastify's (ajv's) validation errors into `{ field: [Romanian messages] }`. */
export function fieldErrorsFromValidation(error: FastifyError): FieldErrors {
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
    const message = FIELD_MESSAGES[leaf]?.[issue.keyword] ?? DEFAULT_MESSAGES[issue.keyword]?.(issue.params) ?? 'Valoarea nu este validă.';
    const messages = (fields[field] ??= []);
    if (!messages.includes(message)) messages.push(message);
  }
  return fields;
}
