import { useEffect, useId, useMemo, useRef, useState, type UIEvent } from 'react';
import { flushSync } from 'react-dom';
import { Combobox, createListCollection, Field, Portal, Text } from '@chakra-ui/react';
import { FieldNotes, fieldNoteIds } from './FieldErrors';
import { ListLoading } from './ListLoading';
import type { ServerSearch } from './useServerSearch';

/** How close (px) to the end of the list counts as "near its end". */
const END_THRESHOLD_PX = 48;

export interface ServerComboboxTexts {
  placeholder: string;
  /** The trigger button's label ("Arată lista"). */
  toggle: string;
  empty: string;
  loading: string;
  loadingMore: string;
  failed: string;
  /** Shown in the list while `idle` (nothing asked yet: "at least 3 characters"). */
  idle?: string;
}

export interface ServerComboboxProps<T extends { id: number }> {
  /** The visible label, linked to the input. */
  label: string;
  /** The search behind the list (`useServerSearch`): typing, paging, retry and its state. */
  search: Pick<ServerSearch<T>, 'search' | 'loadMore' | 'retry' | 'loading' | 'loadingMore' | 'failed' | 'idle'>;
  /** What to list: the search's items, possibly filtered by the caller. */
  items: T[];
  itemToString(item: T): string;
  /** The chosen item's id, or null. */
  value: number | null;
  /** The input's text while the user is not typing: the chosen item's label. */
  valueLabel: string;
  onSelect(item: T): void;
  /** Spec 000 §9: 300 ms for the address lists; 0 asks at once. */
  scrollDebounceMs?: number;
  /** A hint under the field, linked by aria-describedby. */
  hint?: string;
  /** Shown under the field, linked by aria-describedby and announced. */
  error?: string;
  disabled?: boolean;
  required?: boolean;
  /** The input's id (for scrolling to it or focusing it); generated when absent. */
  id?: string;
  texts: ServerComboboxTexts;
  /** What was typed in the stand-in drawn while this chunk loaded, and whether it had the focus (`LazyServerCombobox`). */
  early?: EarlyInput;
}

/** The stand-in's input, handed to the combobox that replaces it. */
export interface EarlyInput {
  /** The text typed there, or null when nothing was typed. */
  text: string | null;
  focused: boolean;
}

/**
 * A searchable single-choice list over server-side data (CAEN codes, counties, cities), on
 * Chakra's Combobox (WAI-ARIA combobox: role=combobox input with a visible <label>, listbox of
 * options, arrows/Enter/Escape). The server filters, so the collection holds what was loaded; the
 * input shows the chosen label until the user types, and goes back to it when the list closes.
 */
export function ServerCombobox<T extends { id: number }>(props: ServerComboboxProps<T>) {
  const { label, items, itemToString, value, valueLabel, onSelect, search } = props;
  const { loading, loadingMore, failed, idle, search: onSearch, loadMore: onEndReached, retry: onOpen } = search;
  const { scrollDebounceMs = 0, hint, error, disabled, required, texts, early } = props;
  const generatedId = useId();
  const inputId = props.id ?? `combobox-${generatedId}`;
  const { describedBy } = fieldNoteIds(inputId, hint, error);

  const collection = useMemo(
    () => createListCollection<T>({ items, itemToString, itemToValue: (item) => String(item.id) }),
    [items, itemToString],
  );

  // While the user types, the input shows their text; otherwise the chosen label.
  const [typed, setTyped] = useState<string | null>(() => (early?.text != null && early.text !== valueLabel ? early.text : null));
  const [typedEarly] = useState(typed);
  // Taking over from the stand-in: its focus, and a search for what was typed there (the list opens with it).
  useEffect(() => {
    if (typedEarly !== null) onSearch(typedEarly);
    if (!early?.focused) return;
    const input = document.getElementById(inputId);
    if (input instanceof HTMLInputElement) {
      input.focus();
      input.setSelectionRange(input.value.length, input.value.length);
    }
    // Once, on mount.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  const stopTyping = () => {
    if (typed !== null) {
      setTyped(null);
      if (typed !== '') onSearch('');
    }
  };

  const scrollTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(scrollTimer.current), []);
  const onScroll = (event: UIEvent<HTMLDivElement>) => {
    const list = event.currentTarget;
    const nearEnd = () => list.scrollHeight - list.scrollTop - list.clientHeight <= END_THRESHOLD_PX;
    clearTimeout(scrollTimer.current);
    if (!scrollDebounceMs) {
      if (nearEnd()) onEndReached();
      return;
    }
    scrollTimer.current = setTimeout(() => nearEnd() && onEndReached(), scrollDebounceMs);
  };

  return (
    <Field.Root id={inputId} invalid={Boolean(error)} required={required} disabled={disabled}>
      <Combobox.Root
        collection={collection}
        ids={{ input: inputId }}
        value={value === null ? [] : [String(value)]}
        inputValue={typed ?? valueLabel}
        onInputValueChange={(e) => {
          if (e.reason !== 'input-change') return;
          // Commit at once: Ark writes the controlled value back into the input after each render,
          // and a render lagging behind fast typing would write back a stale value (lost keystrokes).
          flushSync(() => setTyped(e.inputValue));
          onSearch(e.inputValue);
        }}
        onValueChange={(e) => {
          const item = e.items[0] as T | undefined;
          if (item) onSelect(item);
          stopTyping();
        }}
        onOpenChange={(e) => {
          if (e.open) onOpen();
          else stopTyping();
        }}
        onHighlightChange={(e) => {
          if (e.highlightedValue !== null && e.highlightedValue === collection.lastValue) onEndReached();
        }}
        selectionBehavior="preserve"
        defaultOpen={typedEarly !== null && typedEarly !== ''}
        openOnClick
        disabled={disabled}
        required={required}
        invalid={Boolean(error)}
        placeholder={texts.placeholder}
        positioning={{ sameWidth: true }}
        translations={{ triggerLabel: texts.toggle }}
        width="full"
      >
        <Combobox.Label>
          {label}
          <Field.RequiredIndicator />
        </Combobox.Label>
        <Combobox.Control>
          <Combobox.Input aria-describedby={describedBy} />
          <Combobox.IndicatorGroup>
            <Combobox.Trigger />
          </Combobox.IndicatorGroup>
        </Combobox.Control>
        <Portal>
          <Combobox.Positioner>
            <Combobox.Content maxH="64" overflowY="auto" onScroll={onScroll} aria-busy={loading || loadingMore || undefined}>
              {loading && collection.items.length === 0 ? (
                <ListLoading size="sm" text={texts.loading} />
              ) : failed && !loading ? (
                <Text px="3" py="2" fontSize="sm" color="fg.error">
                  {texts.failed}
                </Text>
              ) : idle && texts.idle ? (
                <Text px="3" py="2" fontSize="sm" color="fg.muted">
                  {texts.idle}
                </Text>
              ) : (
                <>
                  {/* A new search keeps the last answer listed (and choosable) until its own arrives. */}
                  {loading ? <ListLoading text={texts.loading} /> : <Combobox.Empty>{texts.empty}</Combobox.Empty>}
                  {collection.items.map((item) => (
                    <Combobox.Item item={item} key={item.id}>
                      <Combobox.ItemText>{itemToString(item)}</Combobox.ItemText>
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
      <FieldNotes inputId={inputId} hint={hint} error={error} />
    </Field.Root>
  );
}
