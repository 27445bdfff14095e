import { useCallback, useEffect, useRef, useState } from 'react';
import type { City, PlacesService } from '../types';
import { useDebouncedValue } from './useDebouncedValue';
import { SEARCH_DEBOUNCE_MS } from './CountyPicker';
import { PlaceCombobox, type PlacePickerProps } from './PlaceCombobox';

/** Spec 000 §9: cities page size 25. */
export const CITY_PAGE_SIZE = 25;
const NONE: City[] = [];

export interface CityPickerProps extends PlacePickerProps {
  /** The chosen county; the picker is disabled while it is null. Changing it clears the city. */
  countyId: number | null;
  places: PlacesService;
  /** Translates `steps:address.*` keys. */
  t(key: string, vars?: Record<string, unknown>): string;
}

/**
 * The city of an address, within `countyId`: pages of 25 through
 * `places.cities(countyId, offset, 25, search)`, the next page when the list is scrolled near its
 * end (300 ms scroll debounce), searchable with a 500 ms debounce. Disabled until a county is
 * chosen; a different county clears the value (`onChange(null, '')`) and the list.
 */
export function CityPicker(props: CityPickerProps) {
  const { countyId, value, onChange } = props;
  // Clear a city chosen under another county (not one that arrived together with its county).
  const previous = useRef({ countyId, value });
  useEffect(() => {
    const before = previous.current;
    previous.current = { countyId, value };
    if (before.countyId !== countyId && before.value === value && value !== null) onChange(null, '');
  }, [countyId, value, onChange]);
  // A new county starts a fresh list and search.
  return <CityList key={countyId ?? 'none'} {...props} />;
}

interface Page {
  key: string;
  items: City[];
  total: number;
  failed: boolean;
}

function CityList({ countyId, places, t, disabled, ...picker }: CityPickerProps) {
  const [search, setSearch] = useState('');
  const term = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);
  // A failed load is retried when the list is opened again.
  const [attempt, setAttempt] = useState(0);
  const key = `${countyId}|${attempt}|${term}`;
  const [page, setPage] = useState<Page | null>(null);
  const [loadingMore, setLoadingMore] = useState(false);
  const live = useRef(true);
  useEffect(() => {
    live.current = true;
    return () => {
      live.current = false;
    };
  }, []);

  useEffect(() => {
    if (countyId === null) return;
    let current = true;
    places.cities(countyId, 0, CITY_PAGE_SIZE, term || undefined).then(
      ({ data, total }) => current && setPage({ key, items: data, total, failed: false }),
      () => current && setPage({ key, items: [], total: 0, failed: true }),
    );
    return () => {
      current = false;
    };
  }, [places, countyId, term, key]);

  const loaded = page?.key === key ? page : null;
  // One further page at a time (scrolling and arrowing to the last option may both ask).
  const requesting = useRef(false);
  const loadMore = useCallback(() => {
    if (countyId === null || !loaded || requesting.current || loaded.items.length >= loaded.total) return;
    requesting.current = true;
    setLoadingMore(true);
    const done = () => {
      requesting.current = false;
      if (live.current) setLoadingMore(false);
    };
    places.cities(countyId, loaded.items.length, CITY_PAGE_SIZE, term || undefined).then(
      ({ data, total }) => {
        done();
        if (!live.current) return;
        setPage((previous) => (previous?.key === loaded.key ? { ...previous, items: [...previous.items, ...data], total } : previous));
      },
      done,
    );
  }, [places, countyId, term, loaded]);

  const loading = countyId !== null && !loaded;
  return (
    <PlaceCombobox
      {...picker}
      disabled={disabled || countyId === null}
      // While a new search loads, the last answer (same county: the list is keyed by it) stays listed.
      items={(loaded ?? page)?.items ?? NONE}
      loading={loading}
      loadingMore={loadingMore}
      failed={Boolean(loaded?.failed)}
      onSearch={setSearch}
      onEndReached={loadMore}
      onOpen={() => {
        if (loaded?.failed) setAttempt((n) => n + 1);
      }}
      hint={countyId === null ? t('steps:address.chooseCountyFirst') : undefined}
      texts={{
        empty: t('steps:address.noCity'),
        loading: t('steps:address.loading'),
        loadingMore: t('steps:address.loadingMore'),
        failed: t('steps:address.loadError'),
        placeholder: t('steps:address.cityPlaceholder'),
        toggle: t('steps:address.showList'),
      }}
    />
  );
}
