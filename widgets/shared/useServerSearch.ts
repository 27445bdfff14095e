import { useCallback, useEffect, useRef, useState } from 'react';
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
