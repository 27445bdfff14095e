import { useState } from 'react';
import { Box, Button, Field, HStack, Input, Text } from '@chakra-ui/react';
import type { StepServices } from '../types';
import { FieldErrors } from '../shared/FieldErrors';
import { serverMessage, type ProfileField } from './overview-rules';

/** A value that cannot be changed here; `hint` says why (read aloud, shown when `showHint`). */
export function ReadOnlyValue({ label, value, hint, showHint }: { label: string; value: string; hint?: string; showHint?: boolean }) {
  return (
    <Box>
      <Text fontWeight="semibold" fontSize="sm">
        {label}
      </Text>
      <Text>{value || '—'}</Text>
      {hint ? (
        <Text srOnly={!showHint} fontSize="sm" color="fg.muted">
          {hint}
        </Text>
      ) : null}
    </Box>
  );
}

interface EditableValueProps {
  id: string;
  field: ProfileField;
  label: string;
  value: string;
  editable: boolean;
  inputMode?: 'numeric';
  maxLength: number;
  t: StepServices['t'];
  onSave(value: string): Promise<void>;
}

/** A profile value with "Modifică": edit, save through the service, success text or the server's first message under the field. */
export function EditableValue({ id, field, label, value, editable, inputMode, maxLength, t, onSave }: EditableValueProps) {
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(value);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const [busy, setBusy] = useState(false);
  const inputId = `${id}-input`;
  const errorId = `${id}-error`;

  const start = () => {
    setDraft(value);
    setError(null);
    setSaved(false);
    setEditing(true);
  };
  const save = async () => {
    setBusy(true);
    setError(null);
    try {
      await onSave(draft.trim());
      setEditing(false);
      setSaved(true);
    } catch (e) {
      setError(serverMessage(e, field, t('steps:overview.saveError')));
    } finally {
      setBusy(false);
    }
  };

  if (!editing) {
    return (
      <Box data-testid={`overview-${field}`}>
        <Text fontWeight="semibold" fontSize="sm">
          {label}
        </Text>
        <HStack justify="space-between" gap="2" wrap="wrap">
          <Text>{value || '—'}</Text>
          {editable ? (
            // The name is the shown word and the field's label ("Modifică Nume"): it contains what is seen, whatever the copy.
            <Button size="sm" variant="ghost" colorPalette="blue" onClick={start}>
              {t('steps:overview.edit')}{' '}
              <Text as="span" srOnly>
                {label}
              </Text>
            </Button>
          ) : null}
        </HStack>
        {saved ? (
          <Text role="status" color="fg.success" fontSize="sm">
            {t('steps:overview.saved')}
          </Text>
        ) : null}
      </Box>
    );
  }
  return (
    <Box data-testid={`overview-${field}`}>
      <Field.Root invalid={Boolean(error)}>
        <Field.Label htmlFor={inputId}>{label}</Field.Label>
        <Input
          id={inputId}
          value={draft}
          inputMode={inputMode}
          maxLength={maxLength}
          autoFocus
          aria-describedby={error ? errorId : undefined}
          onChange={(e) => {
            setDraft(e.target.value);
            setError(null);
          }}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              void save();
            } else if (e.key === 'Escape') setEditing(false);
          }}
        />
      </Field.Root>
      <FieldErrors id={errorId} errors={error ? [error] : undefined} />
      <HStack gap="2" mt="2">
        <Button size="sm" colorPalette="blue" onClick={() => void save()} loading={busy} loadingText={t('steps:overview.save')}>
          {t('steps:overview.save')}
        </Button>
        <Button size="sm" variant="outline" onClick={() => setEditing(false)} disabled={busy}>
          {t('steps:overview.cancel')}
        </Button>
      </HStack>
    </Box>
  );
}
