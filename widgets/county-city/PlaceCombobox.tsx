import { useEffect, useId, useMemo, useRef, useState, type UIEvent } from 'react';
import { flushSync } from 'react-dom';
import { Combobox, createListCollection, Field, Portal, Text } from '@chakra-ui/react';
import { FieldErrors } from '../shared/FieldErrors';
import { ListLoading } from '../shared/ListLoading';

/** Spec 000 §9: the list asks for its next page once scrolling has paused for 300 ms near its end. */
export const SCROLL_DEBOUNCE_MS = 300;
/** How close (px) to the end of the list counts as "near its end". */
const END_THRESHOLD_PX = 48;

export interface Place {
  id: number;
  name: string;
}

/** What both pickers take (spec 000 §5 "Address form"; reused by the mailing-address and branch-office steps). */
export interface PlacePickerProps {
  /** The visible label, linked to the input. */
  label: string;
  /** The chosen id, or null. */
  value: number | null;
  /** The chosen item's name, shown before the list has loaded (e.g. `profile.county`). */
  valueName?: string | null;
  /** A choice was made (or cleared: `null, ''`). */
  onChange(id: number | null, name: string): void;
  /** Shown under the field, linked by aria-describedby and announced. */
  error?: string;
  disabled?: boolean;
  required?: boolean;
  /** The input's id (for scrolling to it or focusing it); generated when absent. */
  id?: string;
}

interface PlaceComboboxProps extends PlacePickerProps {
  items: Place[];
  /** The first page (or a new search) is loading. */
  loading: boolean;
  /** A further page is loading. */
  loadingMore?: boolean;
  failed: boolean;
  /** The raw text typed into the input (the picker debounces it); '' when the list closes. */
  onSearch(term: string): void;
  /** The list was scrolled (or arrowed) to its end. */
  onEndReached?(): void;
  /** The list opened (a picker retries a failed load then). */
  onOpen?(): void;
  /** A hint under the field (e.g. why it is disabled). */
  hint?: string;
  texts: { empty: string; loading: string; loadingMore: string; failed: string; placeholder: string; toggle: string };
}

/**
 * A searchable single-choice list over server-side data, on Chakra's Combobox (WAI-ARIA combobox:
 * role=combobox input with a visible <label>, listbox of options, arrows/Enter/Escape). The
 * server filters, so the collection holds what the picker loaded; the input shows the chosen name
 * until the user types, and goes back to it when the list closes without a choice.
 */
export function PlaceCombobox(props: PlaceComboboxProps) {
  const { label, value, valueName, onChange, error, disabled, required, items, loading, loadingMore, failed, onSearch, onEndReached, onOpen, hint, texts } =
    props;
  const generatedId = useId();
  const inputId = props.id ?? `place-${generatedId}`;
  const errorId = `${inputId}-error`;
  const hintId = `${inputId}-hint`;

  const collection = useMemo(
    () => createListCollection<Place>({ items, itemToString: (item) => item.name, itemToValue: (item) => String(item.id) }),
    [items],
  );
  const selectedName = (value !== null && items.find((item) => item.id === value)?.name) || (value !== null ? (valueName ?? '') : '');

  // While the user types, the input shows their text; otherwise the chosen name.
  const [typed, setTyped] = useState<string | null>(null);
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
    clearTimeout(scrollTimer.current);
    scrollTimer.current = setTimeout(() => {
      if (list.scrollHeight - list.scrollTop - list.clientHeight <= END_THRESHOLD_PX) onEndReached?.();
    }, SCROLL_DEBOUNCE_MS);
  };

  const describedBy = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(' ') || undefined;

  return (
    <Field.Root id={inputId} invalid={Boolean(error)} required={required} disabled={disabled}>
      <Combobox.Root
        collection={collection}
        ids={{ input: inputId }}
        value={value === null ? [] : [String(value)]}
        inputValue={typed ?? selectedName}
        onInputValueChange={(e) => {
          if (e.reason !== 'input-change') return;
          // Commit at once: Ark writes the controlled value back into the input after each render,
          // and a render lagging behind fast typing would write back a stale value (lost keystrokes).
          flushSync(() => setTyped(e.inputValue));
          onSearch(e.inputValue);
        }}
        onValueChange={(e) => {
          const item = e.items[0] as Place | undefined;
          if (item) onChange(item.id, item.name);
          stopTyping();
        }}
        onOpenChange={(e) => {
          if (e.open) onOpen?.();
          else stopTyping();
        }}
        onHighlightChange={(e) => {
          if (e.highlightedValue !== null && e.highlightedValue === collection.lastValue) onEndReached?.();
        }}
        selectionBehavior="preserve"
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
              ) : (
                <>
                  {/* A new search keeps the last answer listed (and choosable) until its own arrives. */}
                  {loading ? <ListLoading text={texts.loading} /> : <Combobox.Empty>{texts.empty}</Combobox.Empty>}
                  {collection.items.map((item) => (
                    <Combobox.Item item={item} key={item.id}>
                      <Combobox.ItemText>{item.name}</Combobox.ItemText>
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
      {hint ? (
        <Text id={hintId} fontSize="sm" color="fg.muted" mt="1">
          {hint}
        </Text>
      ) : null}
      <FieldErrors id={errorId} errors={error ? [error] : undefined} />
    </Field.Root>
  );
}
