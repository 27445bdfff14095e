/**
 * The shapes of the answers (DESIGN.md "API conventions"), registered once with `addSchema` by the
 * docs plugin and used by every route's `response` (and so by the OpenAPI document at
 * /api/docs/json). Objects list the fields the browser relies on and allow more
 * (`additionalProperties: true`): Fastify's serializer would otherwise drop what is not listed.
 */

const anyObject = { type: 'object', additionalProperties: true } as const;

/** Every error answer: a Romanian message, and a payload (field errors for a 422, the request for a 409, or null). */
export const ERROR_ENVELOPE = {
  $id: 'error-envelope.json',
  description: '4xx/5xx: `message` in Romanian; `payload` holds `{ field: [messages] }` for a 422, the request for a stale step (409), otherwise null or details.',
  type: 'object',
  properties: { message: { type: 'string' }, payload: {} },
} as const;

/** The registration request as the browser receives it (`RegistrationRequest` in src/core/api-types.ts). */
export const REGISTRATION_REQUEST = {
  $id: 'registration-request.json',
  type: 'object',
  additionalProperties: true,
  required: ['id', 'registration_type', 'step', 'status', 'form_data', 'steps', 'partner'],
  properties: {
    id: { type: 'integer' },
    registration_type: { type: 'integer', enum: [1, 2] },
    step: { type: 'string' },
    status: { type: 'string' },
    lost_reason: { type: ['string', 'null'] },
    form_data: anyObject,
    profile: anyObject,
    media: anyObject,
    paid: { type: 'boolean' },
    created_at: { type: 'string', format: 'date-time' },
    mailing_address: { type: ['object', 'null'], additionalProperties: true },
    status_timeline: { type: 'array', items: {} },
    steps: anyObject,
    variants: { type: 'array', items: { type: 'string' } },
    company: { type: ['object', 'null'], additionalProperties: true },
    partner: anyObject,
  },
} as const;

/** The signed-in user (`SessionUser` in src/core/session.ts): login, register, auto-login. */
export const SESSION_USER = {
  $id: 'session-user.json',
  type: 'object',
  additionalProperties: true,
  required: ['id', 'access_token', 'email', 'registration_type'],
  properties: {
    id: { type: 'integer' },
    access_token: { type: 'string' },
    dashboard_redirect: { type: 'boolean' },
    email: { type: 'string' },
    phone: { type: 'string' },
    registration_type: { type: 'integer', enum: [1, 2] },
    stop_flow: { type: 'boolean' },
    user_source: { type: 'array', items: {} },
  },
} as const;

export const SHARED_SCHEMAS = [ERROR_ENVELOPE, REGISTRATION_REQUEST, SESSION_USER];

/**
 * `{ message, payload }` with this payload schema (any JSON value when not given). No `required`:
 * the serializer would turn a missing field into a 500 instead of leaving it out.
 */
export function envelope(payload: object = {}, description?: string) {
  return {
    ...(description ? { description } : {}),
    type: 'object',
    properties: { message: { type: 'string' }, payload },
  } as const;
}

export const errorReplies = { '4xx': { $ref: 'error-envelope.json#' }, '5xx': { $ref: 'error-envelope.json#' } } as const;

/** A JSON route's answers: 2xx with `payload` as given, and the error envelope. */
export function replies(payload: object = {}, description?: string) {
  return { '2xx': envelope(payload, description), ...errorReplies };
}

/** A route answering the registration request (every step call). */
export const requestReplies = replies({ $ref: 'registration-request.json#' }, 'The registration request');

/** A route whose success answer is not JSON (a page, a file): only the error envelope is JSON. */
export function otherReplies(description: string, contentType: string) {
  return { 200: { description, content: { [contentType]: { schema: { type: 'string' } } } }, ...errorReplies };
}
