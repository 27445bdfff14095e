import { forwardRef } from 'react';
import { Input, useFieldContext, type InputProps } from '@chakra-ui/react';

/**
 * Chakra's Input inside a `Field.Root`, also describing itself by the field's error text:
 * Ark links the error only through `aria-errormessage`, which several screen readers ignore.
 */
export const TextInput = forwardRef<HTMLInputElement, InputProps>(function TextInput(props, ref) {
  const field = useFieldContext();
  const describedBy =
    [props['aria-describedby'], field?.ariaDescribedby, field?.invalid ? field.ids.errorText : undefined].filter(Boolean).join(' ') || undefined;
  return <Input ref={ref} {...props} aria-describedby={describedBy} />;
});
