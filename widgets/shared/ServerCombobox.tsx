import { useEffect, useId, useLayoutEffect, useMemo, useRef, useState, type FocusEvent, type KeyboardEvent, type RefObject, type UIEvent } from 'react';
import { Box, Combobox, createListCollection, Field, Stack, Text, useComboboxContext } from '@chakra-ui/react';
import { FieldNotes, fieldNoteIds } from './FieldErrors';
import { ListStatus, type ListStatusTexts } from './ListLoading';
import { useSearchText, type ServerSearch } from './useServerSearch';

/** How close (px) to the end of the list counts as "near its end". */
const END_THRESHOLD_PX = 48;

/** The field's texts: its placeholder and list button, and what the list's status line says. */
export interface ServerComboboxTexts extends ListStatusTexts {
  placeholder: string;
  /** The trigger button's label ("Arată lista"). */
  toggle: string;
}

export interface ServerComboboxProps<T extends { id: number }> {
  /** The visible label, linked to the input. */
  label: string;
  /** The search behind the list (`useServerSearch`): typing, paging, retry and its state. */
  search: Pick<ServerSearch<T>, 'search' | 'loadMore' | 'retry' | 'loading' | 'loadingMore' | 'failed' | 'idle'>;
  /** What to list: the search's items, possibly filtered by the caller. */
  items: T[];
  itemToString(item: T): string;
  /** A second, smaller line under an option (the CAEN Rev.2 codes a Rev.3 code replaces); read with the option's name. */
  itemDetail?(item: T): string | undefined;
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
  /** The search typed there ('' when it was focused and emptied), or null when it showed the chosen label. */
  text: string | null;
  focused: boolean;
}

/**
 * A searchable single-choice list over server-side data (CAEN codes, counties, cities), on
 * Chakra's Combobox (WAI-ARIA combobox: role=combobox input with a visible <label>, listbox of
 * options, arrows/Enter/Escape). The server filters, so the collection holds what was loaded.
 *
 * The input shows the chosen label while the applicant is elsewhere. Focusing it (a tap, a click,
 * Tab) empties it for a new search at once, with the chosen label as its placeholder; Escape, the
 * list closing or leaving the field without a choice shows the chosen label again (the choice stays).
 * Where the label is shown in the focused field (after a choice, after Escape), a key replaces it
 * rather than editing it (`searchTypedOver`). The search text is this component's (`useSearchText`),
 * every change committed at once, so no later write of the label can overwrite what is typed.
 *
 * The list is drawn inside the field (no portal: it stays in the page's landmarks), and holds only
 * options; what the list is doing (idle hint, searching, nothing found, failed, loading more) is said
 * next to it, in a polite live region, so the listbox never holds anything but options.
 */
export function ServerCombobox<T extends { id: number }>(props: ServerComboboxProps<T>) {
  const { label, items, itemToString, itemDetail, value, valueLabel, onSelect, search } = props;
  const { search: onSearch, loadMore: onEndReached, retry: onOpen } = search;
  const { scrollDebounceMs = 0, hint, error, disabled, required, texts, early } = props;
  const generatedId = useId();
  const inputId = props.id ?? `combobox-${generatedId}`;
  const { describedBy } = fieldNoteIds(inputId, hint, error);
  const rootRef = useRef<HTMLDivElement>(null);
  const panelRef = useRef<HTMLDivElement>(null);

  const collection = useMemo(
    () => createListCollection<T>({ items, itemToString, itemToValue: (item) => String(item.id) }),
    [items, itemToString],
  );

  // The applicant's search while they are in the field, or null: the input shows the chosen label.
  const text = useSearchText(early?.text ?? (early?.focused ? '' : null), onSearch);
  const { typed } = text;
  const [typedEarly] = useState(typed);

  // Taking over from the stand-in: its focus (in the same commit that replaces it, so no key falls
  // between the two), and a search for what was typed there (the list opens with it).
  useLayoutEffect(() => {
    if (typedEarly) onSearch(typedEarly);
    if (!early?.focused) return;
    const input = document.getElementById(inputId);
    if (input instanceof HTMLInputElement) {
      input.focus();
      input.setSelectionRange(input.value.length, input.value.length);
    }
    // Once, on mount.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

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

  const inField = (node: EventTarget | null) => node instanceof Node && Boolean(rootRef.current?.contains(node));
  const inPanel = (node: EventTarget | null) => node instanceof Node && Boolean(panelRef.current?.contains(node));

  return (
    <Field.Root id={inputId} invalid={Boolean(error)} required={required} disabled={disabled}>
      <Combobox.Root
        ref={rootRef}
        collection={collection}
        ids={{ input: inputId }}
        value={value === null ? [] : [String(value)]}
        inputValue={typed ?? valueLabel}
        onInputValueChange={(e) => {
          if (e.reason === 'input-change') text.change(e.inputValue, valueLabel);
        }}
        onValueChange={(e) => {
          const item = e.items[0] as T | undefined;
          if (item) onSelect(item);
          text.stop();
        }}
        onOpenChange={(e) => {
          if (e.open) onOpen();
          else text.stop();
        }}
        onHighlightChange={(e) => {
          if (e.highlightedValue !== null && e.highlightedValue === collection.lastValue) onEndReached();
        }}
        // A press on the list's status line (outside the listbox, inside the panel) does not close it.
        onInteractOutside={(e) => {
          if (inPanel(e.detail.originalEvent.target)) e.preventDefault();
        }}
        selectionBehavior="preserve"
        defaultOpen={typedEarly !== null && typedEarly !== ''}
        openOnClick
        disabled={disabled}
        required={required}
        invalid={Boolean(error)}
        // While the applicant searches, the field's placeholder is the choice they keep unless they pick another.
        placeholder={typed !== null && valueLabel ? valueLabel : texts.placeholder}
        positioning={{ sameWidth: true }}
        translations={{ triggerLabel: texts.toggle }}
        width="full"
      >
        <Combobox.Label>
          {label}
          <Field.RequiredIndicator />
        </Combobox.Label>
        <Combobox.Control>
          <Combobox.Input
            aria-describedby={describedBy}
            onFocus={(event: FocusEvent<HTMLInputElement>) => {
              // Back from the list (a tap on an option may have focused it, and the choice gives the focus back): the new label stays.
              if (!inPanel(event.relatedTarget)) text.start(event.currentTarget);
            }}
            onClick={(event) => text.start(event.currentTarget)}
            onBlur={(event: FocusEvent<HTMLInputElement>) => {
              // Into the list (a tap on an option may focus it): still searching.
              if (!inField(event.relatedTarget)) text.stop();
            }}
            onKeyDown={(event: KeyboardEvent<HTMLInputElement>) => {
              if (event.key === 'Escape') text.stop();
            }}
            onInputCapture={text.onInputCapture}
          />
          <Combobox.IndicatorGroup>
            <Combobox.Trigger />
          </Combobox.IndicatorGroup>
        </Combobox.Control>
        <Combobox.Positioner>
          <ListPanel<T>
            panelRef={panelRef}
            items={collection.items}
            itemToString={itemToString}
            itemDetail={itemDetail}
            search={search}
            texts={texts}
            onScroll={onScroll}
          />
        </Combobox.Positioner>
      </Combobox.Root>
      <FieldNotes inputId={inputId} hint={hint} error={error} />
    </Field.Root>
  );
}

interface ListPanelProps<T extends { id: number }> extends Pick<ServerComboboxProps<T>, 'itemToString' | 'itemDetail' | 'search' | 'texts'> {
  panelRef: RefObject<HTMLDivElement | null>;
  items: T[];
  onScroll(event: UIEvent<HTMLDivElement>): void;
}

/**
 * The open list: a panel under the field (its look: the combobox's content), holding the listbox
 * (options only; Chakra's content part, which Zag scrolls and reads) and, beside it, the list's
 * state in a polite live region: above the options ("Se caută…" over the last answer, nothing
 * found, the idle hint, a failure), or under them while the next page loads.
 */
function ListPanel<T extends { id: number }>({ panelRef, items, itemToString, itemDetail, search, texts, onScroll }: ListPanelProps<T>) {
  const { open } = useComboboxContext();
  const { loading, loadingMore } = search;
  return (
    <Box
      ref={panelRef}
      hidden={!open}
      display="flex"
      flexDirection="column"
      bg="bg.panel"
      borderRadius="l2"
      boxShadow="md"
      // The popper takes its z-index from its first child.
      position="relative"
      zIndex="popover"
      overflow="hidden"
      // Keeps the focus in the input when the status line is pressed.
      onPointerDown={(event) => event.preventDefault()}
      onMouseDown={(event) => event.preventDefault()}
    >
      {/* A new search keeps the last answer listed (and choosable) until its own arrives. */}
      <Combobox.Content maxH="64" overflowY="auto" boxShadow="none" borderRadius="0" bg="transparent" zIndex="auto" onScroll={onScroll} aria-busy={loading || loadingMore || undefined}>
        {items.map((item) => {
          const detail = itemDetail?.(item);
          return (
            <Combobox.Item item={item} key={item.id}>
              <Stack gap="0.5" flex="1" minW="0">
                <Combobox.ItemText>{itemToString(item)}</Combobox.ItemText>
                {detail ? (
                  <Text fontSize="xs" color="fg.muted">
                    {detail}
                  </Text>
                ) : null}
              </Stack>
              <Combobox.ItemIndicator />
            </Combobox.Item>
          );
        })}
      </Combobox.Content>
      <Box role="status" order={loadingMore && !loading ? 1 : -1}>
        <ListStatus search={search} texts={texts} listed={items.length > 0} />
      </Box>
    </Box>
  );
}
