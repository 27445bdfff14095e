import { sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { Db } from '../db';
import type { MailingAddressJson } from './mailing';
import type { PartnerPrice } from './model';

/**
 * Everything a serialized request carries besides its own row, in one query (issue 14: reading a
 * request is a bounded number of queries, none per document or timeline item): the partner's
 * prices, the photos of the last identity session, the saved signature, the documents, the mailing
 * address and the status timeline. Each part is a JSON aggregate of its own table, so the rows of
 * one part never multiply those of another.
 */
export interface RequestExtras {
  prices: PartnerPrice[];
  /** Of the user's last identity session that was not deleted, oldest first. */
  identity_uploads: { context: string; file_id: number }[];
  /** The signature file form_data names, when it still exists and is the user's. */
  signature_id: number | null;
  /** Documents linked to the request, oldest first; `own`: the file is the applicant's. */
  documents: { id: number; name: string; kind: 'diploma' | 'driver_license' | 'trade_register' | 'legal_assistance_contract' | 'power_of_attorney_request'; own: boolean }[];
  mailing_address: MailingAddressJson | null;
  /** By date, then id. */
  timeline: { id: number; type: string; date: string; data: Record<string, unknown> }[];
}

const json = <T>(value: unknown): T => (typeof value === 'string' ? JSON.parse(value) : value) as T;

/** The ids the extras are read by, as SQL values or as columns of a query that has the request. */
export interface ExtrasKeys {
  id: SQL;
  userId: SQL;
  partnerId: SQL;
  signatureFileId: SQL;
}

/** The partner's prices as a JSON array (`PartnerPrice`), in their order. */
export function partnerPricesSql(partnerId: SQL | AnyColumn): SQL {
  return sql`(select coalesce(json_agg(json_build_object(
        'id', p.id, 'description', p.description, 'stripe_id', p.stripe_price_id, 'amount_bani', p.amount_bani,
        'currency', p.currency, 'interval', p.interval) order by p.sort_order, p.id), '[]'::json)
      from partner_prices p where p.partner_id = ${partnerId})`;
}

/** The prices column `partnerPricesSql` made (node-postgres and PGlite parse json, or hand a string). */
export function parsePrices(value: unknown): PartnerPrice[] {
  return json(value);
}

/** One JSON object with every part of the extras (each a JSON aggregate of its own table). */
export function extrasSql({ id, userId, partnerId, signatureFileId }: ExtrasKeys): SQL {
  return sql`json_build_object(
    'prices', ${partnerPricesSql(partnerId)},
    'identity_uploads', (select coalesce(json_agg(json_build_object('context', u.context, 'file_id', u.file_id) order by u.id), '[]'::json)
      from identity_uploads u
      where u.identity_session_id = (
        select s.id from identity_sessions s where s.user_id = ${userId} and s.deleted_at is null
        order by s.created_at desc, s.id desc limit 1)),
    'signature_id', (select f.id from files f where f.id = ${signatureFileId} and f.user_id = ${userId}),
    'documents', (select coalesce(json_agg(json_build_object('id', f.id, 'name', f.original_name, 'kind', d.kind, 'own', f.user_id = ${userId}) order by d.id), '[]'::json)
      from request_documents d join files f on f.id = d.file_id where d.request_id = ${id}),
    'mailing_address', (select json_build_object(
        'contact_first_name', m.contact_first_name, 'contact_last_name', m.contact_last_name, 'contact_phone', m.contact_phone,
        'county_id', m.county_id, 'city_id', m.city_id, 'county', co.name, 'city', ci.label, 'postal_code', m.postal_code,
        'street', m.street, 'number', m.number, 'building', m.building, 'entrance', m.entrance, 'floor', m.floor,
        'apartment', m.apartment)
      from mailing_addresses m join counties co on co.id = m.county_id join cities ci on ci.id = m.city_id
      where m.user_id = ${userId}),
    'timeline', (select coalesce(json_agg(json_build_object('id', t.id, 'type', t.type, 'date', t.date, 'data', t.data) order by t.date, t.id), '[]'::json)
      from timeline_items t where t.request_id = ${id})
  )`;
}

/**
 * `form_data.signature_file_id` as an integer id in SQL (what `signatureFileIdOf` accepts), null for
 * anything else: never a cast error, whatever the stored JSON holds.
 */
export const signatureFileIdSql = (formData: SQL | AnyColumn): SQL =>
  sql`(case when jsonb_typeof(${formData}->'signature_file_id') = 'number' and (${formData}->>'signature_file_id') ~ '^[1-9][0-9]{0,8}$'
    then (${formData}->>'signature_file_id')::integer end)`;

/** The extras as the JSON object `extrasSql` made (node-postgres and PGlite parse json, or hand a string). */
export function parseExtras(value: unknown): RequestExtras {
  const row = json<Record<string, unknown>>(value);
  return {
    prices: json(row.prices),
    identity_uploads: json(row.identity_uploads),
    signature_id: row.signature_id === null || row.signature_id === undefined ? null : Number(row.signature_id),
    documents: json(row.documents),
    mailing_address: json(row.mailing_address ?? null),
    timeline: json(row.timeline),
  };
}

export async function requestExtras(
  db: Db,
  request: { id: number; userId: number; partnerId: number; signatureFileId: number | null },
): Promise<RequestExtras> {
  const { id, userId, partnerId, signatureFileId } = request;
  const keys = { id: sql`${id}::integer`, userId: sql`${userId}::integer`, partnerId: sql`${partnerId}::integer`, signatureFileId: sql`${signatureFileId}::integer` };
  const result = await db.execute(sql`select ${extrasSql(keys)} as extras`);
  return parseExtras((result as unknown as { rows: Record<string, unknown>[] }).rows[0].extras);
}
