/**
 * The API contract as types: each operation of the OpenAPI document (GET /api/docs/json) by its
 * `operationId`, with what it takes and answers. The types come from src/core/api-schema.d.ts,
 * generated from that document by openapi-typescript (`npm run api:types`; a test fails when it
 * is not current), so they are what the server's route schemas declare. Types only: no byte of it
 * reaches a bundle.
 *
 * The browser's hand-written shapes (src/core/api-types.ts) are checked against these by
 * tests/core/api-types-match.test.ts; the operator command (scripts/ops/) reads its answers with them.
 */
import type { operations } from './api-schema';

export type { components, operations, paths } from './api-schema';

/** Every operation's name (`getNewPfaRequest`, `listOpsDossiers`, …). */
export type OperationId = keyof operations;

/**
 * An answer with every field its schema lists. The answers' schemas say which fields there are and
 * their types, not which are always there: they list no `required` (fast-json-stringify would turn
 * a missing required field into a 500: server/lib/api-schemas.ts). The browser's types read the
 * fields as present, and so does this. A timeline item's fields depend on its type: read them by
 * type (src/core/timeline.ts).
 */
export type Sent<T> = T extends readonly (infer U)[] ? Sent<U>[] : T extends object ? { [K in keyof T]-?: Sent<Exclude<T[K], undefined>> } : T;

/** The success answers of an operation (`2XX`, or an explicit `200`/`201`). */
type Success<Op extends OperationId> = operations[Op]['responses'][Extract<keyof operations[Op]['responses'], '2XX' | '200' | '201'>];

/** The JSON envelope an operation answers on success: `{ message, payload }`. */
export type AnswerEnvelope<Op extends OperationId> = Success<Op> extends { content: { 'application/json': infer J } } ? J : never;

/** The `payload` of an operation's success answer, as sent (see `Sent`). */
export type Answer<Op extends OperationId> = Sent<Exclude<AnswerEnvelope<Op> extends { payload?: infer P } ? P : never, undefined>>;

/** The JSON body an operation takes (never for one without a body). */
export type RequestBody<Op extends OperationId> = operations[Op] extends { requestBody: { content: { 'application/json': infer B } } }
  ? B
  : operations[Op] extends { requestBody?: { content: { 'application/json': infer B } } }
    ? B
    : never;
