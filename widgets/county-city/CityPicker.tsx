import { useEffect, useRef } from 'react';
import type { City, PlacesService } from '../types';
import { useServerSearch } from '../shared/useServerSearch';
import { SEARCH_DEBOUNCE_MS } from './CountyPicker';
import { PlaceCombobox, type PlacePickerProps } from './PlaceCombobox';

/** Spec 000 §9: cities page size 25. */
export const CITY_PAGE_SIZE = 25;

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

function CityList({ countyId, places, t, disabled, ...picker }: CityPickerProps) {
  const search = useServerSearch<City>({
    load: (term, offset) => places.cities(countyId!, offset, CITY_PAGE_SIZE, term || undefined),
    debounceMs: SEARCH_DEBOUNCE_MS,
    enabled: countyId !== null,
  });
  return (
    <PlaceCombobox
      {...picker}
      disabled={disabled || countyId === null}
      search={search}
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
