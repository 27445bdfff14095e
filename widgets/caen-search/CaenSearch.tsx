import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { Combobox, createListCollection, Field, Portal, Text } from '@chakra-ui/react';
import type { CaenCode, CaenService } from '../types';
import { FieldErrors } from '../shared/FieldErrors';
import { ListLoading } from '../shared/ListLoading';

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

/**
 * One CAEN row's searchable dropdown (Chakra Combobox, WAI-ARIA combobox): the server searches
 * by code prefix or name once at least 3 characters are typed and 300 ms have passed; scrolling
 * or arrowing to the end of the list loads the next page of 25.
 */
export function CaenSearch({ label, value, onChange, search, texts, excludeIds = [], disabled, error, id }: CaenSearchProps) {
  const generatedId = useId();
  const inputId = id ?? `caen-${generatedId}`;
  const hintId = `${inputId}-hint`;
  const errorId = `${inputId}-error`;
  const [typed, setTyped] = useState<string | null>(null);
  const [term, setTerm] = useState('');
  const [items, setItems] = useState<CaenCode[]>([]);
  const [total, setTotal] = useState(0);
  const [loading, setLoading] = useState(false);
  const [loadingMore, setLoadingMore] = useState(false);
  const [failed, setFailed] = useState(false);
  const request = useRef(0);

  // The latest search function, without re-running the debounce when its identity changes.
  const searchRef = useRef(search);
  useEffect(() => {
    searchRef.current = search;
  }, [search]);

  // 300 ms after the last keystroke, search what is typed; below 3 characters nothing is asked.
  useEffect(() => {
    const text = (typed ?? '').trim();
    const timer = setTimeout(() => {
      const next = text.length >= CAEN_MIN_SEARCH ? text : '';
      const mine = ++request.current;
      setTerm(next);
      setFailed(false);
      if (!next) {
        setItems([]);
        setTotal(0);
        setLoading(false);
        return;
      }
      setLoading(true);
      searchRef
        .current(next, 0, CAEN_PAGE_SIZE)
        .then((page) => {
          if (mine !== request.current) return;
          setItems(page.data);
          setTotal(page.total);
        })
        .catch(() => mine === request.current && setFailed(true))
        .finally(() => mine === request.current && setLoading(false));
    }, CAEN_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [typed]);

  const loadMore = () => {
    if (!term || loading || loadingMore || items.length >= total) return;
    const mine = request.current;
    setLoadingMore(true);
    searchRef.current(term, items.length, CAEN_PAGE_SIZE)
      .then((page) => mine === request.current && setItems((prev) => [...prev, ...page.data.filter((c) => !prev.some((p) => p.id === c.id))]))
      .catch(() => undefined)
      .finally(() => setLoadingMore(false));
  };

  const shown = useMemo(() => items.filter((c) => !excludeIds.includes(c.id) || c.id === value?.id), [items, excludeIds, value]);
  const collection = useMemo(
    () => createListCollection<CaenCode>({ items: shown, itemToString: caenLabel, itemToValue: (c) => String(c.id) }),
    [shown],
  );
  const describedBy = [hintId, error ? errorId : null].filter(Boolean).join(' ');

  return (
    <Field.Root invalid={Boolean(error)} disabled={disabled}>
      <Combobox.Root
        collection={collection}
        ids={{ input: inputId }}
        value={value ? [String(value.id)] : []}
        inputValue={typed ?? (value ? caenLabel(value) : '')}
        onInputValueChange={(e) => {
          if (e.reason !== 'input-change') return;
          flushSync(() => setTyped(e.inputValue));
        }}
        onValueChange={(e) => {
          const item = e.items[0] as CaenCode | undefined;
          if (item) onChange(item);
          setTyped(null);
        }}
        onOpenChange={(e) => {
          if (!e.open) setTyped(null);
        }}
        onHighlightChange={(e) => {
          if (e.highlightedValue !== null && e.highlightedValue === collection.lastValue) loadMore();
        }}
        selectionBehavior="preserve"
        openOnClick
        disabled={disabled}
        invalid={Boolean(error)}
        placeholder={texts.placeholder}
        positioning={{ sameWidth: true }}
        translations={{ triggerLabel: texts.toggle }}
        width="full"
      >
        <Combobox.Label>{label}</Combobox.Label>
        <Combobox.Control>
          <Combobox.Input aria-describedby={describedBy} />
          <Combobox.IndicatorGroup>
            <Combobox.Trigger />
          </Combobox.IndicatorGroup>
        </Combobox.Control>
        <Portal>
          <Combobox.Positioner>
            <Combobox.Content
              maxH="64"
              overflowY="auto"
              aria-busy={loading || loadingMore || undefined}
              onScroll={(event) => {
                const list = event.currentTarget;
                if (list.scrollHeight - list.scrollTop - list.clientHeight <= 48) loadMore();
              }}
            >
              {loading && collection.items.length === 0 ? (
                <ListLoading size="sm" text={texts.loading} />
              ) : failed && !loading ? (
                <Text px="3" py="2" fontSize="sm" color="fg.error">
                  {texts.failed}
                </Text>
              ) : !term ? (
                <Text px="3" py="2" fontSize="sm" color="fg.muted">
                  {texts.hint}
                </Text>
              ) : (
                <>
                  {/* A new search keeps the last answer listed (and choosable) until its own arrives. */}
                  {loading ? <ListLoading text={texts.loading} /> : <Combobox.Empty>{texts.empty}</Combobox.Empty>}
                  {collection.items.map((item) => (
                    <Combobox.Item item={item} key={item.id}>
                      <Combobox.ItemText>{caenLabel(item)}</Combobox.ItemText>
                      <Combobox.ItemIndicator />
                    </Combobox.Item>
                  ))}
                  {loadingMore ? <ListLoading text={texts.loadingMore} /> : null}
                </>
              )}
            </Combobox.Content>
          </Combobox.Positioner>
        </Portal>
      </Combobox.Root>
      <Text id={hintId} fontSize="sm" color="fg.muted" mt="1">
        {texts.hint}
      </Text>
      <FieldErrors id={errorId} errors={error ? [error] : undefined} />
    </Field.Root>
  );
}
