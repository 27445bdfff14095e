import type { ReactElement } from 'react';
import { render } from '@testing-library/react';
import { ChakraProvider, defaultSystem } from '@chakra-ui/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import ro from '../../locales/ro/steps.json';
import { vi } from 'vitest';
import type { StepServices } from '../../widgets/types';
import type { EngineApi } from '../../src/engine/api';
import type { RegistrationRequest } from '../../src/core/api-types';

/** `t` over the real Romanian step copy, with {{var}} interpolation. */
export function t(key: string, vars: Record<string, unknown> = {}): string {
  const [, path] = key.split(':');
  let node: unknown = ro;
  for (const part of path.split('.')) node = (node as Record<string, unknown> | undefined)?.[part];
  if (typeof node !== 'string') return key;
  return node.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String({ product: 'Ghișeu', ...vars }[name] ?? ''));
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
    ...overrides,
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

/** A new-PFA request at `step`, as GET /api/registration/open answers it. */
export function request(step: string, formData: Record<string, unknown> = {}, partner = { slug: 'neafiliat', is_unaffiliated: true, name: 'Standard' }): RegistrationRequest {
  const i = ORDER.indexOf(step);
  return {
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
  };
}

/** An EngineApi answering GET with `initial` and each POST with `answers[url]`; records the POSTs. */
export function fakeApi(initial: RegistrationRequest, answers: Record<string, (body: any) => unknown> = {}) {
  const calls: { url: string; body: unknown }[] = [];
  const api: EngineApi = {
    get: vi.fn(async () => initial) as EngineApi['get'],
    post: vi.fn(async (url: string, body?: unknown) => {
      calls.push({ url, body });
      const answer = answers[url];
      if (!answer) throw new Error(`unexpected POST ${url}`);
      return answer(body);
    }) as EngineApi['post'],
  };
  return { api, calls };
}
