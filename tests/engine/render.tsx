import type { ReactElement } from 'react';
import { render } from '@testing-library/react';
import { ChakraProvider, defaultSystem } from '@chakra-ui/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import ro from '../../locales/ro/steps.json';
import { vi } from 'vitest';
import type { DossierService, IdentityContext, IdentityService, IdentitySession, PlacesService, Profile, StepServices } from '../../widgets/types';
import type { EngineApi } from '@/engine/api';
import type { RegistrationRequest } from '@/core/api-types';
import { FLOWS } from '@/engine/flows';
import { requestContext, resolveFlow, type Flow } from '@/core/flow';

/** `t` over the real Romanian step copy, with {{var}} interpolation. */
export function t(key: string, vars: Record<string, unknown> = {}): string {
  const [, path] = key.split(':');
  let node: unknown = ro;
  for (const part of path.split('.')) node = (node as Record<string, unknown> | undefined)?.[part];
  // Like i18next: a missing key reads `defaultValue` when one is given.
  if (typeof node !== 'string') return typeof vars.defaultValue === 'string' ? vars.defaultValue : key;
  return node.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String({ product: 'Ghișeu', ...vars }[name] ?? ''));
}

/**
 * A step's text as its flow file gives it (flows/*.json): its `title`, `name`, or an entry of its
 * `copy` (`submit`: the step's button, `steps:common.next` when the file names none, as StepRunner
 * shows it), through `t`. Tests assert what the flow file says, so an edit of the file or of the
 * locale text leaves them right.
 */
export function stepText(stepId: string, part: string, vars: Record<string, unknown> = {}): string {
  const step = Object.values(FLOWS)
    .flatMap((flow) => flow.steps)
    .find((s) => s.id === stepId);
  if (!step) throw new Error(`no step ${stepId} in the flow files`);
  const copy = (step.copy ?? {}) as Record<string, unknown>;
  const key = part === 'title' || part === 'name' ? step[part] : part === 'submit' ? (copy.submit ?? 'steps:common.next') : copy[part];
  if (typeof key !== 'string') throw new Error(`step ${stepId} has no ${part} in its flow file`);
  return t(key, vars);
}

export function fakeServices(overrides: Partial<StepServices> = {}): StepServices {
  return {
    t,
    lostReasons: async () => [
      { identifier: 'vinde-produse', fe_text: 'Voi vinde produse', fe_subtext: 'Comerț cu bunuri' },
      { identifier: 'platitor-tva', fe_text: 'Voi fi plătitor de TVA', fe_subtext: null },
      { identifier: 'niciuna', fe_text: 'Niciuna dintre acestea', fe_subtext: 'Prestez doar servicii' },
    ],
    activities: async () => [
      { id: 1, code: 'consultanta-it', name: 'Consultanță IT și programare', is_primary: true },
      { id: 2, code: 'curier', name: 'Curierat și livrări', is_primary: true },
      { id: 3, code: 'taxi', name: 'Ride-sharing / taxi', is_primary: true },
      { id: 7, code: 'design-grafic', name: 'Design grafic', is_primary: false },
      { id: 99, code: 'question-mark', name: 'Nu găsesc activitatea', is_primary: false },
    ],
    maritalStatuses: async () => [
      { id: 1, code: 'comunitate-legala', display_name: 'Comunitatea legală de bunuri', display_description: 'Bunurile sunt comune.', is_default: true },
      { id: 2, code: 'separatie-bunuri', display_name: 'Separația de bunuri', display_description: 'Fiecare își păstrează bunurile.', is_default: false },
    ],
    places: fakePlaces(),
    identity: fakeIdentity().service,
    dossier: fakeDossier(),
    reloadPage: vi.fn(),
    caen: { search: vi.fn(async () => ({ data: [], total: 0 })), overview: vi.fn(async () => ({ company_name: null, activity: null, codes: [], email: 'ana@exemplu.ro', phone: '0712345678', editable: true })), updateFormData: vi.fn(async () => ({ profile: {}, codes: [] })), markAsLost: vi.fn(async () => undefined) },
    ...overrides,
  };
}

/** The dossier steps' calls, in memory: one saved mailing address, two branch offices in Cluj. */
export function fakeDossier(): DossierService {
  return {
    deleteSignature: vi.fn(async () => undefined),
    saveMailingAddress: vi.fn(async (values) => ({ ...values, county_id: values.county_id!, city_id: values.city_id!, county: 'Cluj', city: 'Cluj-Napoca' })),
    branchOffices: vi.fn(async (countyId: number) =>
      countyId === 12
        ? [
            { id: 1, county_id: 12, name: 'iCredit Cluj Centru', address: 'Str. Memorandumului nr. 1, Cluj-Napoca', name_formatted: 'iCredit Cluj Centru' },
            { id: 2, county_id: 12, name: 'iCredit Cluj Mănăștur', address: 'Str. Primăverii nr. 2, Cluj-Napoca', name_formatted: 'iCredit Cluj Mănăștur' },
          ]
        : [],
    ),
  };
}

export function fakePlaces(): PlacesService {
  const counties = [
    { id: 12, name: 'Cluj', code: 'CJ' },
    { id: 40, name: 'București', code: 'B' },
  ];
  const cities = [
    { id: 1201, name: 'Cluj-Napoca', county_id: 12 },
    { id: 1202, name: 'Turda', county_id: 12 },
    { id: 4001, name: 'Sector 1', county_id: 40 },
  ];
  return {
    counties: async (search) => counties.filter((c) => !search || c.name.toLowerCase().includes(search.toLowerCase())),
    cities: async (countyId, offset, limit, search) => {
      const data = cities.filter((c) => c.county_id === countyId && (!search || c.name.toLowerCase().includes(search.toLowerCase())));
      return { data: data.slice(offset, offset + limit), total: data.length };
    },
  };
}

/**
 * An in-memory identity provider with the server's life cycle: a session, three ordered uploads,
 * submit (status 4), then the status the test sets with `decide(2|3)`. Records every call.
 */
export function fakeIdentity(initial: IdentitySession | null = null) {
  let session: IdentitySession | null = initial;
  let decided: number | null = null;
  let reason: string | null = null;
  let reasonCode: number | null = null;
  let profile: Profile = {};
  const calls: string[] = [];
  const failures: Partial<Record<keyof IdentityService, unknown>> = {};
  const fail = (name: keyof IdentityService) => {
    if (failures[name]) {
      const error = failures[name];
      delete failures[name];
      throw error;
    }
  };
  const service: IdentityService = {
    lastSession: async () => {
      calls.push('lastSession');
      fail('lastSession');
      return session ? structuredClone(session) : null;
    },
    createSession: async () => {
      calls.push('createSession');
      fail('createSession');
      session = { session_id: 's-1', custom_id: 'c-1', status: 1, submitted: false, uploads: { 'document-front': null, 'document-back': null, face: null } };
      return { session_id: 's-1', custom_id: 'c-1' };
    },
    upload: async (_id, context: IdentityContext, _file, fileName, onProgress) => {
      calls.push(`upload:${context}:${fileName}`);
      fail('upload');
      onProgress?.(0.5);
      onProgress?.(1);
      const uploaded = { file_id: Object.values(session!.uploads).filter(Boolean).length + 1, preview_url: `/api/files/${context}` };
      session!.uploads[context] = uploaded;
      return uploaded;
    },
    submit: async () => {
      calls.push('submit');
      fail('submit');
      session!.status = 4;
      session!.submitted = true;
    },
    status: async () => {
      calls.push('status');
      fail('status');
      if (decided !== null && session) session.status = decided;
      return session?.status ?? 1;
    },
    error: async () => {
      calls.push('error');
      return { code: reasonCode ?? (reason ? 9102 : null), translated_reason: reason };
    },
    deleteSession: async () => {
      calls.push('deleteSession');
      fail('deleteSession');
      session = null;
      decided = null;
    },
    preview: async (url) => `blob:${url}`,
    autoLoginLink: async (redirect) => {
      calls.push(`autoLoginLink:${redirect}`);
      fail('autoLoginLink');
      return `http://127.0.0.1/auto-login?token=t&redirect=${redirect}`;
    },
    saveAddress: async (values) => {
      calls.push('saveAddress');
      fail('saveAddress');
      profile = { ...profile, ...values, county: 'Cluj', city: 'Cluj-Napoca', address_1: `Str. ${values.street} nr. ${values.number}`, address_2: 'Cluj-Napoca, județul Cluj' };
      return profile;
    },
  };
  return {
    service,
    calls,
    /** The provider's decision, seen at the next status poll. */
    decide(status: number, why: string | null = null, code: number | null = null) {
      decided = status;
      reason = why;
      reasonCode = code;
    },
    /** The next call of `name` rejects with `error`. */
    failNext(name: keyof IdentityService, error: unknown) {
      failures[name] = error;
    },
    setSession(next: IdentitySession | null) {
      session = next;
    },
    profile: () => profile,
  };
}

let currentPath = '';
function LocationProbe() {
  currentPath = useLocation().pathname;
  return null;
}
export const location = () => currentPath;

export function renderAt(path: string, element: ReactElement, routePattern = '/*') {
  return render(
    <ChakraProvider value={defaultSystem}>
      <MemoryRouter initialEntries={[path]}>
        <LocationProbe />
        <Routes>
          <Route path={routePattern} element={element} />
        </Routes>
      </MemoryRouter>
    </ChakraProvider>,
  );
}

const ORDER = Array.from({ length: 10 }, (_, i) => `requesting-company-step-${i}`);

/**
 * `answer` with the variants the server applies to it (`variants`: server/registration/serialize.ts
 * resolves the flow file for the request), as the wizard reads them: a fake answer says what the
 * server would. `flow`: the flow file the server runs, default the bundled one of the request's type.
 */
export function withServerVariants<T>(answer: T, flow?: Flow): T {
  if (!answer || typeof answer !== 'object' || !('partner' in answer) || !('form_data' in answer)) return answer;
  const r = answer as unknown as RegistrationRequest;
  return { ...answer, variants: resolveFlow(flow ?? FLOWS[r.registration_type], requestContext(r)).variants };
}

/** A new-PFA request at `step`, as GET /api/registration/open answers it (with its variants, of `flow`: default the bundled file). */
export function request(step: string, formData: Record<string, unknown> = {}, partner = { slug: 'neafiliat', is_unaffiliated: true, name: 'Standard' }, flow?: Flow): RegistrationRequest {
  const i = ORDER.indexOf(step);
  return withServerVariants<RegistrationRequest>({
    id: 1,
    registration_type: 2,
    step,
    status: 'in_progress',
    lost_reason: null,
    form_data: formData,
    profile: {},
    media: {},
    paid: false,
    created_at: '2026-11-22T10:00:00Z',
    paid_at: null,
    signature_file_id: null,
    ghiseu_card_requested: null,
    mailing_address: null,
    status_timeline: [],
    steps: {
      previous: i > 0 ? { identifier: ORDER[i - 1] } : null,
      current: { identifier: step, index: i },
      next: i < 9 ? { identifier: ORDER[i + 1] } : null,
      total: 10,
    },
    variants: [],
    partner: { id: 1, description: null, footnote: null, prices: [], ...partner },
  }, flow);
}

/**
 * An EngineApi answering GET with `initial` and each POST with `answers[url]`; records the POSTs. A
 * request it answers carries the variants the server would apply (`withServerVariants`, of `flow`).
 */
export function fakeApi(initial: RegistrationRequest, answers: Record<string, (body: any) => unknown> = {}, flow?: Flow) {
  const calls: { url: string; body: unknown }[] = [];
  const api: EngineApi = {
    get: vi.fn(async () => withServerVariants(initial, flow)) as EngineApi['get'],
    post: vi.fn(async (url: string, body?: unknown) => {
      calls.push({ url, body });
      const answer = answers[url];
      if (!answer) throw new Error(`unexpected POST ${url}`);
      return withServerVariants(await answer(body), flow);
    }) as EngineApi['post'],
  };
  return { api, calls };
}
