import { apiUrl } from '@/shared/api/client';
import { browser } from '@/shared/browser';
import type { CompanyInfo, Envelope, MailingAddress, RegistrationRequest } from '@/core/api-types';
import { isBillingTimelineType, type TimelineItem } from '@/core/timeline';
import { staffFetchBlob, staffRequest } from '../api';

/**
 * The operator console's calls to the staff API (`/api/staff/*`, see docs/operations.md "The operator console"),
 * through the staff pages' client (../api.ts: the staff session's token only, ApiError with the
 * 422 field errors, a 401 ends the staff session).
 */

export interface DossierSummary {
  id: number;
  email: string;
  name: string | null;
  cnp: string | null;
  cui: string | null;
  registration_type: 1 | 2;
  flow: string;
  /** The 1-based position of `step_id` in the flow file (null when the file no longer has it). */
  step: number | null;
  step_id: string;
  paid: boolean;
  status: string;
  partner: string | null;
  created_at: string;
}

export interface DossierPage {
  items: DossierSummary[];
  total: number;
  page: number;
  page_size: number;
}

export interface DossierQuery {
  search?: string;
  flow?: string;
  step?: string;
  paid?: string;
  status?: string;
  partner?: string;
  page?: number;
  page_size?: number;
}

/** A stored file of the dossier the operator can download (`url`: its address under /api/staff/…). */
export interface DossierFile {
  id: number | string;
  name: string;
  url: string;
  /** What it is: the identity photo's side, the document's field, the signed PDF's kind… */
  kind?: string | null;
  size?: number | null;
}

export interface DossierPayment {
  id: string;
  provider: string;
  status: string;
  amount: number;
  currency: string;
  created_at: string;
  paid_at: string | null;
  subscription_id?: string | null;
  schedule_id?: string | null;
}

export interface CaenCode {
  code: string;
  name?: string | null;
  primary?: boolean;
  /** "CAEN Rev.3"; "CAEN Rev.2" for a code kept as sent, or one that split and awaits the applicant's choice. */
  revision?: string;
  /** For a Rev.2 code: the Rev.3 classes it became. */
  replacedBy?: Array<{ code: string; name: string }>;
}

/** "Am PFA": the firm found by its CUI (`company` of the request), with what its main CAEN code means today; null for a new PFA. */
export type DossierCompany = CompanyInfo;

export interface AuditEntry {
  id: number;
  at: string;
  /** Who: the staff member's e-mail; null for the shared OPS_TOKEN (`npm run ops`). */
  staff: string | null;
  /** The operator the OPS_TOKEN's caller named (`X-Ops-Actor`, OPS_ACTOR); null for a staff member or an older entry. */
  actor: string | null;
  action: string;
  before: unknown;
  after: unknown;
}

export interface Dossier extends DossierSummary {
  profile: Record<string, unknown>;
  identity_photos: DossierFile[];
  documents: DossierFile[];
  licence_files: DossierFile[];
  signature: DossierFile | null;
  caen_codes: CaenCode[];
  /** The dossier was sent by the applicant (`form_data.submitted_at`): its codes stay as sent. */
  sent: boolean;
  company: DossierCompany | null;
  mailing_address: MailingAddress | null;
  payments: DossierPayment[];
  billing_events: TimelineItem[];
  timeline: TimelineItem[];
  trade_register_documents: DossierFile[];
  signed_documents: DossierFile[];
  audit: AuditEntry[];
}

/** A stored file of the applicant as `GET /api/staff/dossiers/:id` lists it (`url`: its staff download). */
export interface StaffFile {
  id: number;
  name: string;
  content_type: string;
  size: number;
  created_at: string;
  url: string;
}

/** `GET /api/staff/dossiers/:id` as the server answers it (its response schema in server/routes/staff-dossiers.ts). */
export interface DossierAnswer {
  dossier: DossierSummary;
  /** What the applicant's `GET /api/registration/open` answers. */
  request: RegistrationRequest;
  caen_codes: { id: number; code: string; name: string; is_primary: number | boolean; revision?: string; replaced_by?: { code: string; name: string }[] }[];
  payments: DossierPayment[];
  files: StaffFile[];
  audit: { id: number; at: string; staff_user_id: number | null; staff_email: string | null; actor?: string | null; action: string; request_id: number | null; before: unknown; after: unknown }[];
}

type MediaRef = { id: number; name?: string; kind?: string } | null | undefined;

/** The identity photos' media keys, in the order the applicant takes them. */
export const IDENTITY_MEDIA = ['veriff_document_front', 'veriff_document_back', 'selfie_document'] as const;
/** The documents and licences' media keys (the documents step). */
export const DOCUMENT_MEDIA = ['diploma_documents', 'driver_license'] as const;

/** The answer as the page shows it: each file of `request.media` named and with its staff download address. */
export function toDossier(answer: DossierAnswer): Dossier {
  const { request } = answer;
  const media = (request.media ?? {}) as Record<string, unknown>;
  const file = (ref: MediaRef, kind: string): DossierFile | null => {
    if (!ref || typeof ref.id !== 'number') return null;
    const stored = answer.files.find((f) => f.id === ref.id);
    return { id: ref.id, kind, name: ref.name ?? stored?.name ?? String(ref.id), url: stored?.url ?? `/api/staff/dossiers/${answer.dossier.id}/files/${ref.id}`, size: stored?.size ?? null };
  };
  const list = (key: string, kind = key): DossierFile[] => (Array.isArray(media[key]) ? (media[key] as MediaRef[]) : []).map((ref) => file(ref, ref?.kind ?? kind)).filter((f): f is DossierFile => f !== null);
  const timeline = (Array.isArray(request.status_timeline) ? request.status_timeline : []) as TimelineItem[];
  return {
    ...answer.dossier,
    profile: request.profile ?? {},
    identity_photos: IDENTITY_MEDIA.map((key) => file(media[key] as MediaRef, key)).filter((f): f is DossierFile => f !== null),
    documents: list('diploma_documents'),
    licence_files: list('driver_license'),
    signature: file(media.signature_document as MediaRef, 'signature_document'),
    caen_codes: answer.caen_codes.map((c) => ({
      code: c.code,
      name: c.name,
      primary: Boolean(c.is_primary),
      revision: c.revision,
      replacedBy: c.replaced_by?.map((r) => ({ code: r.code, name: r.name })),
    })),
    sent: Boolean((request.form_data as Record<string, unknown> | undefined)?.submitted_at),
    company: request.company ?? null,
    mailing_address: request.mailing_address ?? null,
    payments: answer.payments,
    billing_events: timeline.filter((item) => isBillingTimelineType(item.type)),
    timeline: timeline.filter((item) => !isBillingTimelineType(item.type)),
    trade_register_documents: list('trade_register_documents', 'trade_register'),
    signed_documents: list('signed_documents'),
    audit: answer.audit.map((e) => ({ id: e.id, at: e.at, staff: e.staff_email, actor: e.actor ?? null, action: e.action, before: e.before, after: e.after })),
  };
}

/** One type of status-timeline item an operator may add, with its JSON Schema (server/registration/timeline.ts). */
export interface TimelineTypeSchema {
  type: string;
  schema: Record<string, unknown>;
}

async function call<T>(path: string, init: { body?: unknown; query?: Record<string, string | number | undefined> } = {}): Promise<Envelope<T>> {
  return staffRequest<T>(path, { method: init.body === undefined ? 'GET' : 'POST', body: init.body, query: init.query });
}

export const staffApi = {
  dossiers: async (query: DossierQuery) => (await call<DossierPage>('/staff/dossiers', { query: { ...query } })).payload,
  dossier: async (id: string | number) => toDossier((await call<DossierAnswer>(`/staff/dossiers/${id}`)).payload),
  timelineTypes: async () => (await call<TimelineTypeSchema[]>('/staff/timeline-types')).payload,
  addTimelineItem: (id: number, item: Record<string, unknown>) => call<unknown>(`/staff/dossiers/${id}/timeline`, { body: item }),
  attach: (id: number, files: File[]) => {
    const form = new FormData();
    files.forEach((file, i) => form.append(`files[${i}]`, file, file.name));
    return call<unknown>(`/staff/dossiers/${id}/documents`, { body: form });
  },
  finalize: (id: number) => call<unknown>(`/staff/dossiers/${id}/finalize`, { body: {} }),
  reject: (id: number) => call<unknown>(`/staff/dossiers/${id}/reject`, { body: {} }),
  askForDocuments: (id: number, message: string) => call<unknown>(`/staff/dossiers/${id}/missing-documents`, { body: { message } }),
  /** A file only staff may read (the token goes in a header, so no plain link). */
  blob: (path: string) => staffFetchBlob(path),
  auditCsvPath: (id: number) => apiUrl('/staff/audit.csv', { dossier: id }),
};

/** Saves a file the staff API serves under `name` (the token is a header, so no plain link). */
export async function saveStaffFile(path: string, name: string): Promise<void> {
  browser.save(await staffApi.blob(path), name);
}
