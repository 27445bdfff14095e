import { askAhead, takeAhead } from '@/shared/api/ahead';
import { api, apiUrl, isApiError, type RequestOptions } from '@/shared/api/client';
import { browser } from '@/shared/browser';
import { storedLanguage } from '@/shared/language';
import { session } from '@/shared/session';
import { toaster } from '@/shared/toaster';
import type {
  AddressValues,
  CaenCode,
  OverviewData,
  BranchOffice,
  DossierService,
  MailingAddress,
  MailingAddressValues,
  City,
  County,
  IdentityError,
  IdentityService,
  IdentitySession,
  IdentityStatus,
  IdentityUpload,
  MaritalStatus,
  PlacesService,
  StepLists,
  StepServices,
} from '../../../widgets/types';
import type { OfficeService, RegistrationRequest } from '@/core/api-types';
import type { Flow } from '@/core/flow';

/** An ApiError as the widgets see it: status, message, the server's `code` and field errors. */
function toIdentityError(error: unknown): IdentityError | unknown {
  if (!isApiError(error)) return error;
  const code = (error.payload as { code?: unknown } | null)?.code;
  return {
    status: error.status,
    message: error.message,
    code: typeof code === 'string' ? code : undefined,
    fieldErrors: error.fieldErrors,
  } satisfies IdentityError;
}

async function mapped<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw toIdentityError(error);
  }
}

/** `GET path` asked for ahead (src/shared/api/ahead.ts) for the signed-in user: what a widget's `prefetch` calls. */
function askFor(path: string, query?: RequestOptions['query']): Promise<Response> {
  return askAhead(apiUrl(path, query), session.token());
}

/** The answer to `GET path` asked for ahead, once (src/shared/api/ahead.ts `takeAhead`); else the server's. */
function takeOrGet<T>(path: string, query?: RequestOptions['query']): Promise<T> {
  const taken = takeAhead(apiUrl(path, query), session.token());
  return taken ? api.receive<T>(taken) : api.get<T>(path, query);
}

const LAST_SESSION_PATH = '/api/veriff/get-last-session';
const OVERVIEW_PATH = '/api/registration/overview';

/**
 * The calls behind the per-user members of `StepLists` (the last identity session, the overview's
 * data): a step's shell names those its widgets ask for (their `prefetch`), and the page's entry asks
 * for them before the app has loaded (`stepShellAsks` in src/prerender.tsx).
 */
export const AHEAD_CALLS: Partial<Record<keyof StepLists, string>> = { lastIdentitySession: LAST_SESSION_PATH, overview: OVERVIEW_PATH };

/** The identity provider's calls (spec 001 §7 "Identity verification provider calls"). */
export const identityService: IdentityService = {
  // The first call takes the answer asked for ahead; every later one (polling, a restart) asks the server.
  lastSession: () => mapped(() => takeOrGet<IdentitySession | null>(LAST_SESSION_PATH)),
  createSession: () => mapped(() => api.post<{ session_id: string; custom_id: string }>('/api/veriff/create-veriff-session')),
  upload(sessionId, context, file, fileName, onProgress) {
    const form = new FormData();
    form.append('session_id', sessionId);
    form.append('context', context);
    form.append('media_file', file, fileName);
    return mapped(() => api.upload<IdentityUpload>('/api/veriff/upload-image', form, onProgress));
  },
  submit: (sessionId) => mapped(() => api.patch<unknown>('/api/veriff/submit-session', { session_id: sessionId }).then(() => undefined)),
  status: (sessionId, customId) =>
    mapped(() =>
      api
        .get<{ status: IdentityStatus }>('/api/veriff/verify-veriff-session', { session_id: sessionId, custom_id: customId })
        .then((p) => p.status),
    ),
  error: (sessionId, customId) =>
    mapped(() =>
      api.get<{ code: string | number | null; translated_reason: string | null }>('/api/veriff/get-veriff-error', {
        session_id: sessionId,
        custom_id: customId,
      }),
    ),
  deleteSession: (sessionId, customId) =>
    mapped(() => api.delete<unknown>('/api/veriff/delete-session', { session_id: sessionId, custom_id: customId }).then(() => undefined)),
  preview: (url) => mapped(() => api.fetchBlob(url).then((blob) => URL.createObjectURL(blob))),
  autoLoginLink: (redirect) =>
    mapped(() => api.get<{ auto_login_link: string }>('/api/user/auto-login-link', { redirect }).then((p) => p.auto_login_link)),
  saveAddress: (values: AddressValues) =>
    mapped(() => api.post<RegistrationRequest>('/api/registration/update-user-info', values).then((r) => r.profile)),
};

/** Counties (all 42 at once) and a county's cities, paged (spec 000 §9). */
export const placesService: PlacesService = {
  counties: (search) =>
    api.get<{ data: County[] }>('/api/nomenclature/county/index/0/42', { search_term: search }).then((p) => p.data),
  cities: (countyId, offset, limit, search) =>
    api.get<{ data: City[]; total: number }>(`/api/nomenclature/city/index/${offset}/${limit}`, { county_id: countyId, search_term: search }),
};

/** The dossier steps' own calls; the signature's delete call is the flow's (its signature step's `deleteEndpoint`, spec 001 §7). */
export function dossierService(flow: Pick<Flow, 'steps'>): DossierService {
  const signature = flow.steps.find((s) => s.rule === 'signature');
  const deleteEndpoint = (signature?.uiSchema?.['ui:options'] as { deleteEndpoint?: string } | undefined)?.deleteEndpoint;
  return {
    deleteSignature: () => (deleteEndpoint ? api.post<unknown>(deleteEndpoint).then(() => undefined) : Promise.reject(new Error('the flow has no signature step'))),
    saveMailingAddress: (values: MailingAddressValues) =>
      mapped(() => api.post<RegistrationRequest>('/api/mailing-address', values).then((r) => r.mailing_address as unknown as MailingAddress)),
    branchOffices: (countyId) =>
      api.get<{ data: BranchOffice[] }>('/api/nomenclature/icredit-office/index', { county_id: countyId }).then((p) => p.data),
    deleteDocument: (fileId) => api.post<unknown>('/api/registration/delete/diploma-documents', { file_id: fileId }).then(() => undefined),
    acknowledgeAttorney: () => api.post<unknown>('/api/user-meta/attorney-acknowledgement', {}).then(() => undefined),
  };
}

/**
 * The option lists' answers (nomenclatures, the same for every applicant) once read, by address and
 * language: kept while the page lives, so a step shown again draws its list at once. Not a way of
 * fetching ahead: the step page asks for them ahead (`stepAhead`), and the first read takes that answer.
 */
const readLists = new Map<string, Promise<unknown>>();

/** A list's answer: read once per address and language; a failed answer is forgotten (the widget mounted again asks again). */
function list<T>(path: string, query?: RequestOptions['query']): Promise<T> {
  const key = `${storedLanguage()} ${apiUrl(path, query)}`;
  let answer = readLists.get(key) as Promise<T> | undefined;
  if (!answer) {
    answer = takeOrGet<T>(path, query);
    readLists.set(key, answer);
    answer.catch(() => readLists.delete(key));
  }
  return answer;
}

/** The flow's option lists: where each is asked for (path and query). */
function listCalls(flow: Pick<Flow, 'registrationType'>) {
  return {
    lostReasons: ['/api/nomenclature/lost-reasons/index', { registration_type: flow.registrationType }],
    activities: ['/api/nomenclature/activity/index', { is_active: 1 }],
    maritalStatuses: ['/api/nomenclature/marital-status/index', undefined],
  } as const satisfies Record<string, readonly [string, RequestOptions['query']]>;
}

/** The flow's option lists as the widgets read them (`list`: the answer asked for ahead, if any, then kept). */
export function stepLists(flow: Pick<Flow, 'registrationType'>): Pick<StepServices, 'lostReasons' | 'activities' | 'maritalStatuses'> {
  const calls = listCalls(flow);
  return {
    lostReasons: () => list(...calls.lostReasons),
    activities: () => list(...calls.activities),
    maritalStatuses: () => list<{ data: MaritalStatus[] }>(...calls.maritalStatuses).then((p) => p.data),
  };
}

/**
 * What the flow's step page asks for ahead when it opens (src/pages/flow/FlowStepsPage.tsx), beside the
 * step's request, through the step's widgets' `prefetch`: the flow's option lists, the applicant's last
 * identity session and the overview's data (the widgets take them when they mount).
 */
export function stepAhead(flow: Pick<Flow, 'registrationType'>): StepLists {
  const calls = listCalls(flow);
  return {
    lostReasons: () => askFor(...calls.lostReasons),
    activities: () => askFor(...calls.activities),
    maritalStatuses: () => askFor(...calls.maritalStatuses),
    lastIdentitySession: () => askFor(LAST_SESSION_PATH),
    overview: () => askFor(OVERVIEW_PATH),
  };
}

/** Everything the flow's widgets may call, bound to the app's API client (DESIGN.md: widgets get services). */
export function createStepServices(t: StepServices['t'], flow: Flow): StepServices {
  return {
    t,
    ...stepLists(flow),
    places: placesService,
    identity: identityService,
    dossier: dossierService(flow),
    caen: {
      search: (term, offset, size) => api.get<{ data: CaenCode[]; total: number }>(`/api/nomenclature/code/index/${offset}/${size}`, { search_term: term || undefined }),
      overview: () => takeOrGet<OverviewData>(OVERVIEW_PATH),
      updateFormData: (values) => mapped(() => api.post<RegistrationRequest & { codes: OverviewData['codes'] }>('/api/registration/update/form-data', values)).then((r) => ({ profile: r.profile, codes: r.codes })),
      markAsLost: (reason) => api.post<unknown>('/api/mark-as-lost', { reason_identifier: reason }).then(() => undefined),
      officeServices: () => api.get<OfficeService[]>('/api/nomenclature/office-services'),
    },
    reloadPage: () => browser.reload(),
    notify: (type, text) => toaster.create({ type, description: text }),
  };
}
