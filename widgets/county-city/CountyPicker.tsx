import type { County, PlacesService } from '../types';
import { useServerSearch } from '../shared/useServerSearch';
import { PlaceCombobox, type PlacePickerProps } from './PlaceCombobox';

/** Spec 000 §9: search debounce 500 ms (counties load all 42 at once: the service asks with limit 42). */
export const SEARCH_DEBOUNCE_MS = 500;

export interface CountyPickerProps extends PlacePickerProps {
  places: PlacesService;
  /** Translates `steps:address.*` keys. */
  t(key: string, vars?: Record<string, unknown>): string;
}

/**
 * The county of an address: all counties through `places.counties(search)`, searchable (the
 * server matches without diacritics), debounced 500 ms; a failed load is retried when the list opens.
 */
export function CountyPicker({ places, t, ...picker }: CountyPickerProps) {
  const search = useServerSearch<County>({
    load: (term) => places.counties(term || undefined).then((data) => ({ data, total: data.length })),
    debounceMs: SEARCH_DEBOUNCE_MS,
  });
  return (
    <PlaceCombobox
      {...picker}
      search={search}
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
