import { takeEarly } from '@/early-requests';
import { api, isApiError } from '@/shared/api/client';
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
  Profile,
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

/** How long an answer asked for ahead waits for the call that takes it (the widget mounts within seconds; later it is stale). */
export const AHEAD_FRESH_MS = 10_000;

/**
 * An applicant's own answer (`GET path`) a step page asks for ahead (`StepLists`: the last identity
 * session, the overview's data), for the user who was signed in then: the service's next call takes
 * it, once, while fresh (`AHEAD_FRESH_MS`); every later call (polling, a restart, another visit) asks
 * the server. A failed answer is not handed on: the widget asks again. The first call of all takes the
 * answer the page's entry asked for before the app had loaded, if it did (the step's shell names
 * `path`: src/early-requests.ts, `stepShellAsks` in src/prerender.tsx).
 */
function askedAhead<T>(path: string, wrap: (call: () => Promise<T>) => Promise<T> = (call) => call()) {
  let asked: { token: string | null; at: number; answer: Promise<T> } | null = null;
  const ask = () => {
    const early = takeEarly(path, session.token());
    return wrap(() => (early ? api.receive<T>(early) : api.get<T>(path)));
  };
  return {
    path,
    ahead(): Promise<T> {
      const entry = { token: session.token(), at: Date.now(), answer: ask() };
      asked = entry;
      entry.answer.catch(() => {
        if (asked === entry) asked = null;
      });
      return entry.answer;
    },
    take(): Promise<T> {
      const entry = asked;
      asked = null;
      return entry && entry.token === session.token() && Date.now() - entry.at <= AHEAD_FRESH_MS ? entry.answer : ask();
    },
  };
}

const lastSession = askedAhead<IdentitySession | null>('/api/veriff/get-last-session', mapped);
const overviewData = askedAhead<OverviewData>('/api/registration/overview');

/**
 * The calls behind the per-user members of `StepLists`: a step's shell names those its widgets ask
 * for (their `prefetch`), and the page's entry asks for them before the app has loaded.
 */
export const AHEAD_CALLS: Partial<Record<keyof StepLists, string>> = { lastIdentitySession: lastSession.path, overview: overviewData.path };

/** The identity provider's calls (spec 001 §7 "Identity verification provider calls"). */
export const identityService: IdentityService = {
  lastSession: () => lastSession.take(),
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
    mapped(() => api.post<RegistrationRequest>('/api/registration/update-user-info', values).then((r) => r.profile as Profile)),
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

/** The answers of the option lists, by list and language: asked for once while the page lives. */
const listAnswers = new Map<string, Promise<unknown>>();

/** `load` once per key and language; a failed answer is forgotten (the widget asks again when it mounts again). */
function once<T>(key: string, load: () => Promise<T>): Promise<T> {
  const cacheKey = `${storedLanguage()} ${key}`;
  let answer = listAnswers.get(cacheKey) as Promise<T> | undefined;
  if (!answer) {
    answer = load();
    listAnswers.set(cacheKey, answer);
    answer.catch(() => listAnswers.delete(cacheKey));
  }
  return answer;
}

/**
 * The flow's option lists (nomenclatures, the same for every applicant), each asked for once while the
 * page lives: the step page asks for the lists of the step's widgets with its request (their
 * `prefetch`, issue 14: one round trip less before the step is drawn), and the widget takes that answer.
 */
export function stepLists(flow: Pick<Flow, 'registrationType'>): StepLists {
  const registrationType = flow.registrationType;
  return {
    lostReasons: () => once(`lost-reasons ${registrationType}`, () => api.get('/api/nomenclature/lost-reasons/index', { registration_type: registrationType })),
    activities: () => once('activities', () => api.get('/api/nomenclature/activity/index', { is_active: 1 })),
    maritalStatuses: () => once('marital-statuses', () => api.get<{ data: MaritalStatus[] }>('/api/nomenclature/marital-status/index').then((p) => p.data)),
  };
}

/**
 * What the flow's step page asks for ahead when it opens (src/pages/flow/FlowStepsPage.tsx), beside the
 * step's request: the flow's option lists, the applicant's last identity session and the overview's
 * data (the identity and overview steps' widgets take them when they mount).
 */
export function stepAhead(flow: Pick<Flow, 'registrationType'>): StepLists {
  return { ...stepLists(flow), lastIdentitySession: lastSession.ahead, overview: overviewData.ahead };
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
      overview: () => overviewData.take(),
      updateFormData: (values) => mapped(() => api.post<RegistrationRequest & { codes: OverviewData['codes'] }>('/api/registration/update/form-data', values)).then((r) => ({ profile: r.profile as Profile, codes: r.codes })),
      markAsLost: (reason) => api.post<unknown>('/api/mark-as-lost', { reason_identifier: reason }).then(() => undefined),
      officeServices: () => api.get<OfficeService[]>('/api/nomenclature/office-services'),
    },
    reloadPage: () => browser.reload(),
    notify: (type, text) => toaster.create({ type, description: text }),
  };
}
