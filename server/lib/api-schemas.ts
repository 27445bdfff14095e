/**
 * The API contract's answers (DESIGN.md "API conventions"): every route's `response` is built from
 * these blocks, so the OpenAPI document (/api/docs/json) and Fastify's serializer read the same
 * schemas. Shared shapes are registered once by `$id` (`SHARED_SCHEMAS`, added by the docs plugin)
 * and named with `ref('…')`; one-route shapes are written next to their route with `obj`, `nullable`…
 *
 * fast-json-stringify writes ONLY what a schema lists: a field the handler sends but the schema
 * forgets is silently dropped. So objects list every field the handler sends (and the browser's
 * types in src/core/api-types.ts name), and the tests check every answer arrives whole
 * (server/lib/answer-check.ts, on in tests/server/helpers.ts and the e2e server). Only the free-form
 * records (form_data, profile) keep any property (`record`).
 *
 * No `required` in an answer except where the serializer always sends the field: a missing required
 * field makes the serializer throw (a 500) instead of leaving it out.
 */
import { BILLING_TIMELINE_TYPES, TIMELINE_FIELDS, TIMELINE_TYPES, type TimelineFieldKind } from '../../src/core/timeline';
import { COMPANY_CAEN_STATUSES } from '../company/caen';

type Schema = Record<string, unknown>;

/** `{ type: 'object', properties }` whose listed fields are the whole answer (no other field is written). */
export function obj(properties: Record<string, Schema>, extra: Schema = {}): Schema {
  return { type: 'object', properties, ...extra };
}

/** A free-form object: every property is kept as sent (form_data, profile). */
export const record = { type: 'object', additionalProperties: true } as const;

/** The schema, or null. */
export function nullable(schema: Schema): Schema {
  if (typeof schema.type === 'string') return { ...schema, type: [schema.type, 'null'] };
  return { anyOf: [schema, { type: 'null' }] };
}

export const str = { type: 'string' } as const;
export const int = { type: 'integer' } as const;
export const num = { type: 'number' } as const;
export const bool = { type: 'boolean' } as const;
export const dateTime = { type: 'string', format: 'date-time' } as const;
export const nullStr = { type: ['string', 'null'] } as const;
export const nullInt = { type: ['integer', 'null'] } as const;
export const arrayOf = (items: Schema): Schema => ({ type: 'array', items });
/** A reference to a shared schema by its `$id`. */
export const ref = (id: string): Schema => ({ $ref: `${id}#` });

/** Every error answer: a Romanian message, and a payload (field errors for a 422, the request for a 409, or null). */
export const ERROR_ENVELOPE = {
  $id: 'error-envelope.json',
  description: '4xx/5xx: `message` in Romanian; `payload` holds `{ field: [messages] }` for a 422, the request for a stale step (409), otherwise null or details.',
  type: 'object',
  properties: { message: { type: 'string' }, payload: {} },
} as const;

/** A stored file as a request's `media` shows it: `{ id, url }` (GET /api/files/:id). */
const fileRef = nullable(obj({ id: int, url: str }));
/** A document of the request: `{ id, name, url }`. */
const documentRef = obj({ id: int, name: str, url: str });

/** The correspondence address (`MailingAddress` in src/core/api-types.ts). */
export const MAILING_ADDRESS = {
  $id: 'saved-mailing-address.json',
  ...obj({
    contact_first_name: str,
    contact_last_name: str,
    contact_phone: nullStr,
    county_id: int,
    city_id: int,
    county: str,
    city: str,
    postal_code: nullStr,
    street: str,
    number: str,
    building: nullStr,
    entrance: nullStr,
    floor: nullStr,
    apartment: nullStr,
  }),
};

const TIMELINE_KIND: Record<TimelineFieldKind, Schema> = { boolean: bool, date: nullStr, text: str };

/**
 * One `status_timeline` item (`TimelineItem` in src/core/timeline.ts): `{ id, type, date }` and the
 * fields of its type, made from TIMELINE_FIELDS so that a new field is in the contract at once, and
 * the fields of the billing items the server writes itself (PaymentReceivedItem, PaymentFailedItem).
 */
export const TIMELINE_ITEM = {
  $id: 'timeline-item.json',
  ...obj(
    {
      id: int,
      type: { type: 'string', enum: [...TIMELINE_TYPES, ...BILLING_TIMELINE_TYPES] },
      date: str,
      ...Object.fromEntries(Object.values(TIMELINE_FIELDS).flatMap((fields) => Object.entries(fields).map(([name, field]) => [name, TIMELINE_KIND[field.kind]]))),
      amount: { type: ['number', 'null'] },
      currency: nullStr,
      intro_months: nullInt,
      then_amount: { type: ['number', 'null'] },
      next_attempt_date: nullStr,
      payment_id: nullStr,
      invoice_id: nullStr,
      subscription_id: nullStr,
    },
    { required: ['id', 'type', 'date'] },
  ),
};

/** The registration request as the browser receives it (`RegistrationRequest` in src/core/api-types.ts). */
export const REGISTRATION_REQUEST = {
  $id: 'registration-request.json',
  ...obj(
    {
      id: int,
      registration_type: { type: 'integer', enum: [1, 2] },
      step: str,
      status: str,
      lost_reason: nullStr,
      form_data: record,
      profile: record,
      media: obj({
        identity_document: fileRef,
        veriff_document_front: fileRef,
        veriff_document_back: fileRef,
        selfie_document: fileRef,
        signature_document: fileRef,
        diploma_documents: arrayOf(documentRef),
        driver_license: arrayOf(documentRef),
        trade_register_documents: arrayOf(obj({ id: int, name: str })),
        signed_documents: arrayOf(obj({ id: int, kind: str, name: str, url: str })),
      }),
      signature_file_id: nullInt,
      ghiseu_card_requested: { type: ['integer', 'null'], enum: [0, 1, null] },
      paid: bool,
      paid_at: nullable(dateTime),
      created_at: dateTime,
      mailing_address: nullable(ref('saved-mailing-address.json')),
      company: nullable(
        obj({
          fiscal_code: str,
          name: str,
          address: str,
          registration_number: nullStr,
          legal_form: nullStr,
          is_pfa: bool,
          county: nullStr,
          city: nullStr,
          caen_code: nullStr,
          // What the main activity code means in CAEN Rev.3 (`CompanyCaen`, server/company/caen.ts); null without a code.
          caen: nullable(
            obj({
              code: str,
              status: { type: 'string', enum: [...COMPANY_CAEN_STATUSES] },
              current: nullable(obj({ code: str, name: str })),
              previous: nullable(obj({ code: str, name: str })),
              equivalents: arrayOf(obj({ code: str, name: str })),
            }),
          ),
        }),
      ),
      status_timeline: arrayOf(ref('timeline-item.json')),
      steps: obj({
        previous: nullable(obj({ identifier: str })),
        current: obj({ identifier: str, index: int }),
        next: nullable(obj({ identifier: str })),
        total: int,
      }),
      variants: arrayOf(str),
      partner: obj({
        id: int,
        name: str,
        slug: str,
        is_unaffiliated: bool,
        description: nullStr,
        footnote: nullStr,
        prices: arrayOf(obj({ id: int, description: str, stripe_id: str, amount: num, currency: str, interval: str })),
      }),
    },
    {
      required: [
        'id', 'registration_type', 'step', 'status', 'lost_reason', 'form_data', 'profile', 'media', 'signature_file_id',
        'ghiseu_card_requested', 'paid', 'paid_at', 'created_at', 'mailing_address', 'company', 'status_timeline', 'steps', 'variants', 'partner',
      ],
    },
  ),
};

/** The registration request with more fields of one route's own (a copy: the serializer does not merge `allOf`). */
export function requestWith(properties: Record<string, Schema>, description?: string): Schema {
  const { $id: _id, ...request } = REGISTRATION_REQUEST as Schema;
  void _id;
  return { ...request, ...(description ? { description } : {}), properties: { ...(request.properties as Record<string, Schema>), ...properties } };
}

/** The signed-in user (`SessionUser` in src/core/session.ts): login, register, auto-login. */
export const SESSION_USER = {
  $id: 'session-user.json',
  ...obj(
    {
      id: int,
      access_token: str,
      dashboard_redirect: bool,
      requesting_company_paid: bool,
      signature_file_id: nullInt,
      email: str,
      phone: str,
      registration_type: { type: 'integer', enum: [1, 2] },
      stop_flow: bool,
      user_source: arrayOf(obj({ meta_key: str, meta_value: str })),
      /** Auto-login only: the route name the link was made for (or null). */
      redirect: nullStr,
    },
    { required: ['id', 'access_token', 'email', 'registration_type'] },
  ),
};

export const SHARED_SCHEMAS = [ERROR_ENVELOPE, MAILING_ADDRESS, TIMELINE_ITEM, REGISTRATION_REQUEST, SESSION_USER];

/**
 * `{ message, payload }` with this payload schema. No `required`: the serializer would turn a
 * missing field into a 500 instead of leaving it out.
 */
export function envelope(payload: Schema, description?: string) {
  return {
    ...(description ? { description } : {}),
    type: 'object',
    properties: { message: { type: 'string' }, payload },
  } as const;
}

/** `payload: null`: the message is the whole answer (logout, password reset, …). */
export const NO_PAYLOAD = { type: 'null' } as const;

/** A paged list (`Page<T>` in src/core/api-types.ts): `{ data, total }`. */
export const page = (item: Schema): Schema => obj({ data: arrayOf(item), total: int });

export const errorReplies = { '4xx': { $ref: 'error-envelope.json#' }, '5xx': { $ref: 'error-envelope.json#' } } as const;

/** A JSON route's answers: 2xx with `payload` as given, and the error envelope. */
export function replies(payload: Schema, description?: string) {
  return { '2xx': envelope(payload, description), ...errorReplies };
}

/** A route answering the registration request (every step call). */
export const requestReplies = replies(ref('registration-request.json'), 'The registration request');

/** A route whose success answer is not JSON (a page, a file): only the error envelope is JSON. */
export function otherReplies(description: string, contentType: string) {
  return { 200: { description, content: { [contentType]: { schema: { type: 'string' } } } }, ...errorReplies };
}

/** A redirect (3xx, no body): where it goes is in `Location`. */
export function redirectReplies(description: string, code = 302) {
  return { [code]: { description }, ...errorReplies };
}
