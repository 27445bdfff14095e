import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import { flushSync } from 'react-dom';
import { useDebouncedValue } from './useDebouncedValue';

/** One answer of a server-side search: a page of items and how many match in all. */
export interface SearchPage<T> {
  data: T[];
  total: number;
}

export interface ServerSearchOptions<T> {
  /** Asks the server for the items matching `term` from `offset` on (`term` is '' for "all"). */
  load(term: string, offset: number): Promise<SearchPage<T>>;
  /** How long typing must pause before the server is asked (ms). */
  debounceMs: number;
  /** Shorter terms ask nothing: the list is idle (CAEN: 3 characters). 0: '' lists everything. */
  minLength?: number;
  /** False: nothing is asked (the city before a county is chosen). */
  enabled?: boolean;
}

export interface ServerSearch<T> {
  /** What to list: while a new search loads, the last answer stays (a click then still chooses). */
  items: T[];
  /** The first page of the current term is on its way. */
  loading: boolean;
  loadingMore: boolean;
  failed: boolean;
  /** The term is below `minLength`: nothing was asked. */
  idle: boolean;
  /** The raw text typed (debounced and trimmed here); '' when the list closes. */
  search(text: string): void;
  /** The next page, when the list is scrolled or arrowed to its end (one at a time). */
  loadMore(): void;
  /** Asks again after a failed load (when the list is opened again). */
  retry(): void;
}

const NONE: never[] = [];

interface Page<T> extends SearchPage<T> {
  key: string;
  failed: boolean;
}

/**
 * The state of a paged search list over server data (CAEN codes, counties, cities): debounced
 * term, first page, further pages without repeats, failure and retry. Answers to an older term
 * are dropped. `load` may change identity between renders: the latest one is called.
 */
export function useServerSearch<T extends { id: number }>({ load, debounceMs, minLength = 0, enabled = true }: ServerSearchOptions<T>): ServerSearch<T> {
  const [text, setText] = useState('');
  const term = useDebouncedValue(text.trim(), debounceMs);
  const active = enabled && term.length >= minLength;
  const [attempt, setAttempt] = useState(0);
  const key = `${attempt}|${term}`;
  const [page, setPage] = useState<Page<T> | null>(null);
  const [loadingMore, setLoadingMore] = useState(false);
  const loadRef = useRef(load);
  useEffect(() => {
    loadRef.current = load;
  }, [load]);
  const live = useRef(true);
  useEffect(() => {
    live.current = true;
    return () => {
      live.current = false;
    };
  }, []);

  // An idle list forgets its last answer: the next search starts from an empty list.
  if (!active && page !== null) setPage(null);

  useEffect(() => {
    if (!active) return;
    let current = true;
    loadRef.current(term, 0).then(
      ({ data, total }) => current && setPage({ key, data, total, failed: false }),
      () => current && setPage({ key, data: [], total: 0, failed: true }),
    );
    return () => {
      current = false;
    };
  }, [active, term, key]);

  const loaded = active && page?.key === key ? page : null;
  // One further page at a time (scrolling and arrowing to the last option may both ask).
  const requesting = useRef(false);
  const loadMore = useCallback(() => {
    if (!loaded || loaded.failed || requesting.current || loaded.data.length >= loaded.total) return;
    requesting.current = true;
    setLoadingMore(true);
    const done = () => {
      requesting.current = false;
      if (live.current) setLoadingMore(false);
    };
    loadRef.current(term, loaded.data.length).then(({ data, total }) => {
      done();
      if (!live.current) return;
      setPage((previous) =>
        previous?.key === loaded.key
          ? { ...previous, data: [...previous.data, ...data.filter((item) => !previous.data.some((p) => p.id === item.id))], total }
          : previous,
      );
    }, done);
  }, [term, loaded]);

  const retry = useCallback(() => {
    if (loaded?.failed) setAttempt((n) => n + 1);
  }, [loaded]);

  return {
    items: active ? (loaded ?? page)?.data ?? NONE : NONE,
    loading: active && !loaded,
    loadingMore,
    failed: Boolean(loaded?.failed),
    idle: !active,
    search: setText,
    loadMore,
    retry,
  };
}

/**
 * The search the applicant starts by typing into a field that shows the chosen item's label (the
 * combobox and its stand-in, when the label is still there: after a choice, after Escape): the
 * label is one token, never edited character by character. A key typed anywhere in it starts a new
 * search with that key alone, a deletion empties the field, and a replaced selection (all of it
 * selected and typed over, a paste) is the search as it stands.
 * `inputType` is the input event's (`InputEvent.inputType`; '' when unknown).
 */
export function searchTypedOver(label: string, next: string, inputType: string): string {
  if (inputType.startsWith('delete')) return '';
  const added = next.length - label.length;
  if (added <= 0) return next;
  // An insertion into the label: next = label[0, at) + what was typed + label[at, end).
  let at = 0;
  while (at < label.length && next[at] === label[at]) at++;
  return next.slice(at + added) === label.slice(at) ? next.slice(at, at + added) : next;
}

/**
 * The text of a search field over a chosen item (`ServerCombobox`): null while the field shows the
 * chosen label, else the applicant's search ('' just after focusing it). Read through a ref by the
 * handlers, which may run before a re-render (a focus, then a key at once).
 */
export function useSearchText(initial: string | null, onSearch: (text: string) => void) {
  const [typed, setTyped] = useState(initial);
  const current = useRef(initial);
  // The last input event's kind (typing, deleting, pasting): what a change over the shown label means.
  const inputType = useRef('');
  const set = (text: string | null) => {
    current.current = text;
    setTyped(text);
  };
  return {
    typed,
    /** An empty field for a new search (a focus, a click on the label shown); at once: no key may land on the label. */
    start(input: HTMLInputElement) {
      if (current.current !== null) return;
      set('');
      input.value = '';
    },
    /** The chosen label again (a choice, Escape, the list closed, the field left); the search forgets its text. */
    stop() {
      const was = current.current;
      if (was === null) return;
      set(null);
      if (was !== '') onSearch('');
    },
    /**
     * The input's text changed (`label`: the chosen label, which the field may be showing). Committed at
     * once: the combobox writes its controlled value back into the input after each render, and a render
     * lagging behind fast typing would write back a stale value (lost keystrokes).
     */
    change(text: string, label: string) {
      const next = current.current === null ? searchTypedOver(label, text, inputType.current) : text;
      flushSync(() => set(next));
      onSearch(next);
    },
    /** The input's `onInputCapture`: the kind of the input event about to change the text. */
    onInputCapture(event: FormEvent<HTMLInputElement>) {
      inputType.current = (event.nativeEvent as InputEvent).inputType ?? '';
    },
  };
}
