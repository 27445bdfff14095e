import { useEffect, useId, useRef, useState, type ComponentType, type RefObject } from 'react';
import { chakra, Field, useSlotRecipe } from '@chakra-ui/react';
import { afterPaint } from './afterPaint';
import { FieldNotes, fieldNoteIds } from './FieldErrors';
import type { ServerComboboxProps } from './ServerCombobox';
import { searchTypedOver } from './useServerSearch';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyCombobox = ComponentType<ServerComboboxProps<any>>;

let loaded: AnyCombobox | undefined;
let loading: Promise<AnyCombobox> | undefined;

/** The combobox's chunk (Zag's machine, its popper, Floating UI: ~19 KiB brotli), asked for once. */
export function loadServerCombobox(): Promise<AnyCombobox> {
  loading ??= import('./ServerCombobox').then(
    (module) => (loaded = module.ServerCombobox as AnyCombobox),
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
}

/**
 * The shared server combobox for a field the step shows at once, the overview's CAEN rows (issue 14):
 * the step is drawn without waiting for the combobox's chunk, with a stand-in of the same look and size
 * in its place (the label, a text input, the list's arrow, the hint), and the chunk is asked for once
 * the step is on screen (`afterPaint`; a step drawn again finds it loaded). The stand-in behaves as the
 * combobox does with the chosen label (focusing it empties it for a new search, the label as its
 * placeholder; leaving it shows the label again), and what the applicant typed there, and its focus,
 * carry over.
 * A failed download is thrown, for the widget's error boundary, as a widget's own chunk would be.
 */
export function LazyServerCombobox<T extends { id: number }>(props: ServerComboboxProps<T>) {
  const [Combobox, setCombobox] = useState<AnyCombobox | undefined>(() => loaded);
  const [failed, setFailed] = useState<{ error: unknown } | null>(null);
  // What the stand-in was given: the search typed there ('' once focused; null: it shows the chosen label), and whether it had the focus.
  const [typed, setTyped] = useState<string | null>(null);
  const [focused, setFocused] = useState(false);
  const standIn = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (Combobox) return;
    let live = true;
    void afterPaint()
      .then(loadServerCombobox)
      .then(
        (component) => {
          if (!live) return;
          setFocused(standIn.current !== null && document.activeElement === standIn.current);
          setCombobox(() => component);
        },
        (error: unknown) => live && setFailed({ error }),
      );
    return () => {
      live = false;
    };
  }, [Combobox]);
  if (failed) throw failed.error;
  if (Combobox) return <Combobox {...props} early={{ text: typed, focused }} />;
  return <ComboboxStandIn {...props} typed={typed} onType={setTyped} inputRef={standIn} />;
}

interface StandInInput {
  typed: string | null;
  onType(text: string | null): void;
  inputRef: RefObject<HTMLInputElement | null>;
}

/**
 * The closed combobox as Chakra draws it (the `combobox` slot recipe, the same parts and `data-part`s),
 * without its machine: a labelled text input, no list yet. Not a `role=combobox`: it cannot list.
 */
function ComboboxStandIn<T extends { id: number }>(props: ServerComboboxProps<T> & StandInInput) {
  const { id, label, valueLabel, hint, error, disabled, required, texts, typed, onType, inputRef } = props;
  const styles = useSlotRecipe({ key: 'combobox' })({});
  const generatedId = useId();
  const inputId = id ?? `combobox-${generatedId}`;
  const { describedBy } = fieldNoteIds(inputId, hint, error);
  const part = (name: string) => ({ 'data-scope': 'combobox', 'data-part': name });
  const state = { 'data-invalid': error ? '' : undefined, 'data-disabled': disabled ? '' : undefined };
  return (
    <Field.Root id={inputId} invalid={Boolean(error)} required={required} disabled={disabled}>
      <chakra.div css={styles.root} width="full" {...part('root')} {...state}>
        <chakra.label css={styles.label} htmlFor={inputId} {...part('label')} {...state}>
          {label}
          <Field.RequiredIndicator />
        </chakra.label>
        <chakra.div css={styles.control} {...part('control')} {...state}>
          <chakra.input
            css={styles.input}
            {...part('input')}
            {...state}
            ref={inputRef}
            id={inputId}
            // The chosen label until the applicant focuses the field, as the combobox does; then their search.
            value={typed ?? valueLabel}
            placeholder={typed !== null && valueLabel ? valueLabel : texts.placeholder}
            disabled={disabled}
            required={required}
            aria-invalid={error ? true : undefined}
            aria-describedby={describedBy}
            autoComplete="off"
            onFocus={(event) => {
              if (typed !== null) return;
              onType('');
              event.currentTarget.value = '';
            }}
            onBlur={() => onType(null)}
            onChange={(event) => {
              const text = event.currentTarget.value;
              onType(typed === null ? searchTypedOver(valueLabel, text, (event.nativeEvent as InputEvent).inputType ?? '') : text);
            }}
          />
          <chakra.div css={styles.indicatorGroup}>
            <chakra.span css={styles.trigger} {...part('trigger')} aria-hidden>
              <svg viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
                <path d="m6 9 6 6 6-6" />
              </svg>
            </chakra.span>
          </chakra.div>
        </chakra.div>
      </chakra.div>
      <FieldNotes inputId={inputId} hint={hint} error={error} />
    </Field.Root>
  );
}
