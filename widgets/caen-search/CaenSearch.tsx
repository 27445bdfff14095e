import { useMemo } from 'react';
import type { CaenCode, CaenService, StepServices } from '../types';
import { LazyServerCombobox } from '../shared/LazyServerCombobox';
import { useServerSearch } from '../shared/useServerSearch';

/** Spec 001 §5, §9: search from 3 characters, 300 ms after the last keystroke, pages of 25. */
export const CAEN_MIN_SEARCH = 3;
export const CAEN_DEBOUNCE_MS = 300;
export const CAEN_PAGE_SIZE = 25;

export interface CaenSearchTexts {
  placeholder: string;
  hint: string;
  empty: string;
  loading: string;
  loadingMore: string;
  failed: string;
  toggle: string;
  /** An option's second line when the code replaces old CAEN Rev.2 codes the applicant searched ("Înlocuiește codul CAEN Rev.2 6201"). */
  replaces?(codes: string[]): string;
}

export interface CaenSearchProps {
  label: string;
  value: CaenCode | null;
  onChange(code: CaenCode): void;
  search: CaenService['search'];
  texts: CaenSearchTexts;
  /** Codes chosen in other rows: not offered again. */
  excludeIds?: number[];
  disabled?: boolean;
  error?: string;
  id?: string;
}

export const caenLabel = (code: CaenCode) => `${code.code} – ${code.name}`;

/** The CAEN field's texts from the locale files (`steps:overview.search*`). */
export function caenSearchTexts(t: StepServices['t']): CaenSearchTexts {
  return {
    placeholder: t('steps:overview.searchPlaceholder'),
    hint: t('steps:overview.searchHint'),
    empty: t('steps:overview.searchEmpty'),
    loading: t('steps:overview.searchLoading'),
    loadingMore: t('steps:overview.searchLoadingMore'),
    failed: t('steps:overview.searchFailed'),
    toggle: t('steps:overview.searchToggle'),
    replaces: (codes) => t(codes.length > 1 ? 'steps:overview.searchReplacesMany' : 'steps:overview.searchReplaces', { codes: codes.join(', ') }),
  };
}

const noDetail = () => undefined;

/**
 * One CAEN row's searchable dropdown (the shared server combobox): the server searches by code
 * prefix or name once at least 3 characters are typed and 300 ms have passed; scrolling or
 * arrowing to the end of the list loads the next page of 25. The overview draws its rows at once, so
 * the combobox's chunk comes after the step is on screen (`LazyServerCombobox`). A code found through
 * the old CAEN Rev.2 code the applicant typed says which one it replaces, under its name.
 */
export function CaenSearch({ label, value, onChange, search, texts, excludeIds = [], disabled, error, id }: CaenSearchProps) {
  const list = useServerSearch<CaenCode>({
    load: (term, offset) => search(term, offset, CAEN_PAGE_SIZE),
    debounceMs: CAEN_DEBOUNCE_MS,
    minLength: CAEN_MIN_SEARCH,
  });
  const shown = useMemo(() => list.items.filter((c) => !excludeIds.includes(c.id) || c.id === value?.id), [list.items, excludeIds, value]);
  const { replaces } = texts;
  const replaced = useMemo(() => (replaces ? (code: CaenCode) => (code.replaces?.length ? replaces(code.replaces) : undefined) : noDetail), [replaces]);
  return (
    <LazyServerCombobox<CaenCode>
      id={id}
      label={label}
      search={list}
      items={shown}
      itemToString={caenLabel}
      itemDetail={replaced}
      value={value?.id ?? null}
      valueLabel={value ? caenLabel(value) : ''}
      onSelect={onChange}
      hint={texts.hint}
      error={error}
      disabled={disabled}
      texts={{ ...texts, idle: texts.hint }}
    />
  );
}
