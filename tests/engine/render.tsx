import type { ReactElement } from 'react';
import { render } from '@testing-library/react';
import { ChakraProvider, defaultSystem } from '@chakra-ui/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import ro from '../../locales/ro/steps.json';
import type { StepServices } from '../../widgets/types';

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
