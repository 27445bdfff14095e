import { ServerCombobox, type ServerComboboxTexts } from '../shared/ServerCombobox';
import type { ServerSearch } from '../shared/useServerSearch';

/** Spec 000 §9: the list asks for its next page once scrolling has paused for 300 ms near its end. */
export const SCROLL_DEBOUNCE_MS = 300;

export interface Place {
  id: number;
  name: string;
  /** A locality's own postal code (SIRUTA), when it has one. */
  postal_code?: string | null;
}

/** What both pickers take (spec 000 §5 "Address form"; reused by the mailing-address and branch-office steps). */
export interface PlacePickerProps {
  /** The visible label, linked to the input. */
  label: string;
  /** The chosen id, or null. */
  value: number | null;
  /** The chosen item's name, shown before the list has loaded (e.g. `profile.county`). */
  valueName?: string | null;
  /** A choice was made (or cleared: `null, ''`); `place` is the item chosen from the list. */
  onChange(id: number | null, name: string, place?: Place): void;
  /** Shown under the field, linked by aria-describedby and announced. */
  error?: string;
  disabled?: boolean;
  required?: boolean;
  /** The input's id (for scrolling to it or focusing it); generated when absent. */
  id?: string;
}

interface PlaceComboboxProps extends PlacePickerProps {
  /** The picker's server search (`useServerSearch`). */
  search: ServerSearch<Place>;
  /** A hint under the field (e.g. why it is disabled). */
  hint?: string;
  texts: ServerComboboxTexts;
}

const placeName = (place: Place) => place.name;

/** A county or city list: the shared server combobox, showing the chosen name before the list has loaded. */
export function PlaceCombobox({ value, valueName, onChange, search, ...rest }: PlaceComboboxProps) {
  const selectedName = (value !== null && search.items.find((item) => item.id === value)?.name) || (value !== null ? (valueName ?? '') : '');
  return (
    <ServerCombobox<Place>
      {...rest}
      search={search}
      items={search.items}
      itemToString={placeName}
      value={value}
      valueLabel={selectedName}
      onSelect={(item) => onChange(item.id, item.name, item)}
      scrollDebounceMs={SCROLL_DEBOUNCE_MS}
    />
  );
}
