import type { ReactElement } from 'react';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import { ChakraProvider, defaultSystem } from '@chakra-ui/react';
import { vi } from 'vitest';
import type { City, County, PlacesService } from '../../widgets/types';


export function renderUi(ui: ReactElement) {
  return render(<ChakraProvider value={defaultSystem}>{ui}</ChakraProvider>);
}

export const COUNTIES: County[] = [
  { id: 1, name: 'Alba', code: 'AB' },
  { id: 12, name: 'Cluj', code: 'CJ' },
  { id: 40, name: 'București', code: 'B' },
];

/** Cluj has 60 places (Cluj-Napoca, Turda, then "Localitatea 3".."Localitatea 60"); Alba has Alba Iulia. */
export const CITIES: City[] = [
  { id: 1201, name: 'Cluj-Napoca', county_id: 12 },
  { id: 1202, name: 'Turda', county_id: 12 },
  ...Array.from({ length: 58 }, (_, i) => ({ id: 1203 + i, name: `Localitatea ${i + 3}`, county_id: 12 })),
  { id: 101, name: 'Alba Iulia', county_id: 1, kind: 'municipiu', postal_code: null },
  { id: 102, name: 'Albac', county_id: 1, kind: 'comuna', postal_code: null },
  { id: 103, name: 'Rogoz, comuna Albac', county_id: 1, kind: 'sat', postal_code: '517018' },
  { id: 104, name: 'Bărăști, comuna Albac', county_id: 1, kind: 'sat', postal_code: '517006' },
  { id: 4001, name: 'Sector 1', county_id: 40 },
];

const fold = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

/** An in-memory PlacesService over COUNTIES and CITIES (diacritic-insensitive search, like the server), with spies. */
export function spyPlaces() {
  const places = {
    counties: vi.fn(async (search?: string) => COUNTIES.filter((c) => !search || fold(c.name).includes(fold(search)))),
    cities: vi.fn(async (countyId: number, offset: number, limit: number, search?: string) => {
      const data = CITIES.filter((c) => c.county_id === countyId && (!search || fold(c.name).includes(fold(search))));
      return { data: data.slice(offset, offset + limit), total: data.length };
    }),
  } satisfies PlacesService;
  return places;
}

/** Opens a picker's list and waits for `option` to be offered. */
export async function openAndFind(user: UserEvent, input: HTMLElement, option: string) {
  await user.click(input);
  return waitFor(() => screen.getByRole('option', { name: option }));
}

/** Types `text` into a picker and chooses `option` once the (debounced) search has answered. */
export async function choose(user: UserEvent, input: HTMLElement, text: string, option: string) {
  await user.click(input);
  await user.type(input, text);
  const item = await waitFor(() => screen.getByRole('option', { name: option }));
  await user.click(item);
}

/** Pretends the list box is scrolled to its end (jsdom does no layout) and fires the scroll event. */
export function scrollToEnd(list: HTMLElement) {
  Object.defineProperty(list, 'scrollHeight', { configurable: true, value: 1000 });
  Object.defineProperty(list, 'clientHeight', { configurable: true, value: 256 });
  Object.defineProperty(list, 'scrollTop', { configurable: true, writable: true, value: 744 });
  fireEvent.scroll(list);
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
