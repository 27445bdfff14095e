import { useEffect, useState } from 'react';
import type { County, PlacesService } from '../types';
import { useDebouncedValue } from './useDebouncedValue';
import { PlaceCombobox, type PlacePickerProps } from './PlaceCombobox';

/** Spec 000 §9: search debounce 500 ms (counties load all 42 at once: the service asks with limit 42). */
export const SEARCH_DEBOUNCE_MS = 500;
const NONE: County[] = [];

export interface CountyPickerProps extends PlacePickerProps {
  places: PlacesService;
  /** Translates `steps:address.*` keys. */
  t(key: string, vars?: Record<string, unknown>): string;
}

/**
 * The county of an address: all counties through `places.counties(search)`, searchable (the
 * server matches without diacritics), debounced 500 ms. `places` must be a stable service object.
 */
export function CountyPicker({ places, t, ...picker }: CountyPickerProps) {
  const [search, setSearch] = useState('');
  const term = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);
  // A failed load is retried when the list is opened again.
  const [attempt, setAttempt] = useState(0);
  const key = `${attempt}|${term}`;
  const [result, setResult] = useState<{ key: string; items: County[]; failed: boolean } | null>(null);

  useEffect(() => {
    let live = true;
    places.counties(term || undefined).then(
      (items) => live && setResult({ key, items, failed: false }),
      () => live && setResult({ key, items: [], failed: true }),
    );
    return () => {
      live = false;
    };
  }, [places, term, key]);

  const loading = result?.key !== key;
  return (
    <PlaceCombobox
      {...picker}
      // While a new search loads, the last answer stays listed: a click at that moment still chooses.
      items={result ? result.items : NONE}
      loading={loading}
      failed={!loading && Boolean(result?.failed)}
      onSearch={setSearch}
      onOpen={() => {
        if (!loading && result?.failed) setAttempt((n) => n + 1);
      }}
      texts={{
        empty: t('steps:address.noCounty'),
        loading: t('steps:address.loading'),
        loadingMore: t('steps:address.loading'),
        failed: t('steps:address.loadError'),
        placeholder: t('steps:address.countyPlaceholder'),
        toggle: t('steps:address.showList'),
      }}
    />
  );
}
