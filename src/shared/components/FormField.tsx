import type { ReactNode } from 'react';
import { Button, Field, Spinner } from '@chakra-ui/react';

export interface FormFieldProps {
  label: ReactNode;
  /** The server's first message for the field (spec 000 §5); shown under it and marks it invalid. */
  error?: string | null;
  /** A hint under the field, hidden while an error shows. */
  hint?: ReactNode;
  disabled?: boolean;
  /** The control: TextInput, PasswordInput, a radio group… (inside Field.Root, so labelled by it). */
  children: ReactNode;
}

/** One labelled form field with its hint and server error, as every form outside the wizard uses. */
export function FormField({ label, error, hint, disabled, children }: FormFieldProps) {
  return (
    <Field.Root invalid={Boolean(error)} disabled={disabled}>
      <Field.Label>{label}</Field.Label>
      {children}
      {hint && !error && <Field.HelperText>{hint}</Field.HelperText>}
      <Field.ErrorText>{error}</Field.ErrorText>
    </Field.Root>
  );
}

/** The form's submit button: a spinner while the request is in flight. */
export function SubmitButton({ busy, disabled, children }: { busy: boolean; disabled?: boolean; children: ReactNode }) {
  return (
    <Button type="submit" size="lg" disabled={busy || disabled}>
      {busy && <Spinner size="sm" aria-hidden="true" />}
      {children}
    </Button>
  );
}
