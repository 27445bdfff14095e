import { Text } from '@chakra-ui/react';

/** The first error of a field, announced to screen readers. */
export function FieldErrors({ id, errors }: { id: string; errors?: string[] }) {
  if (!errors?.length) return null;
  return (
    <Text id={id} role="alert" color="fg.error" fontSize="sm" mt="2">
      {errors[0]}
    </Text>
  );
}

/** The ids of a field's hint and error (`FieldNotes`) and the input's `aria-describedby` naming those shown. */
export function fieldNoteIds(inputId: string, hint?: string, error?: string) {
  const hintId = `${inputId}-hint`;
  const errorId = `${inputId}-error`;
  return { hintId, errorId, describedBy: [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(' ') || undefined };
}

/** A field's hint, then its error, under the field (the comboboxes: `ServerCombobox` and its stand-in). */
export function FieldNotes({ inputId, hint, error }: { inputId: string; hint?: string; error?: string }) {
  const { hintId, errorId } = fieldNoteIds(inputId);
  return (
    <>
      {hint ? (
        <Text id={hintId} fontSize="sm" color="fg.muted" mt="1">
          {hint}
        </Text>
      ) : null}
      <FieldErrors id={errorId} errors={error ? [error] : undefined} />
    </>
  );
}
