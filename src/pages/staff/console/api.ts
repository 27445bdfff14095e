import { apiUrl } from '@/shared/api/client';
import type { Envelope, MailingAddress } from '@/core/api-types';
import type { TimelineItem } from '@/core/timeline';
import { staffFetchBlob, staffRequest } from '../api';

/**
 * The operator console's calls to the staff API (`/api/staff/*`, see README "For operators"),
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
  step: string;
  step_id?: string | null;
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
}

export interface AuditEntry {
  id: number;
  at: string;
  /** Who: the staff member's e-mail (or "ops" for the shared token). */
  staff: string | null;
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
  mailing_address: MailingAddress | null;
  payments: DossierPayment[];
  billing_events: TimelineItem[];
  timeline: TimelineItem[];
  trade_register_documents: DossierFile[];
  signed_documents: DossierFile[];
  audit: AuditEntry[];
}

/** One type of status-timeline item an operator may add, with its JSON Schema (server/registration/timeline.ts). */
export interface TimelineTypeSchema {
  type: string;
  schema: Record<string, unknown>;
}

async function call<T>(path: string, init: { body?: unknown; query?: Record<string, string | number | undefined> } = {}): Promise<Envelope<T>> {
  return staffRequest<T>(path, { method: init.body === undefined ? 'GET' : 'POST', body: init.body, query: init.query });
}

/** `types` as an array of `{ type, schema }` or as a map type → schema: the console takes either. */
function timelineTypes(payload: unknown): TimelineTypeSchema[] {
  if (Array.isArray(payload)) return payload as TimelineTypeSchema[];
  if (payload && typeof payload === 'object') {
    const record = ('types' in payload ? (payload as { types: unknown }).types : payload) as unknown;
    if (Array.isArray(record)) return record as TimelineTypeSchema[];
    return Object.entries(record as Record<string, Record<string, unknown>>).map(([type, schema]) => ({ type, schema }));
  }
  return [];
}

export const staffApi = {
  dossiers: async (query: DossierQuery) => (await call<DossierPage>('/staff/dossiers', { query: { ...query } })).payload,
  dossier: async (id: string | number) => (await call<Dossier>(`/staff/dossiers/${id}`)).payload,
  timelineTypes: async () => timelineTypes((await call<unknown>('/staff/timeline-types')).payload),
  addTimelineItem: (id: number, item: Record<string, unknown>) => call<unknown>(`/staff/dossiers/${id}/timeline`, { body: item }),
  attach: (id: number, files: File[]) => {
    const form = new FormData();
    files.forEach((file, i) => form.append(`files[${i}]`, file, file.name));
    return call<unknown>(`/staff/dossiers/${id}/documents`, { body: form });
  },
  finalize: (id: number) => call<unknown>(`/staff/dossiers/${id}/finalize`, { body: {} }),
  reject: (id: number) => call<unknown>(`/staff/dossiers/${id}/reject`, { body: {} }),
  askForDocuments: (id: number, message: string) => call<unknown>(`/staff/dossiers/${id}/ask-documents`, { body: { message } }),
  /** A file only staff may read (the token goes in a header, so no plain link). */
  blob: (path: string) => staffFetchBlob(path),
  auditCsvPath: (id: number) => apiUrl('/staff/audit.csv', { dossier: id }),
};

/** Saves a file the staff API serves under `name` (through an object URL: the token is a header). */
export async function saveStaffFile(path: string, name: string): Promise<void> {
  const blob = await staffApi.blob(path);
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.hidden = true;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 30_000);
}
