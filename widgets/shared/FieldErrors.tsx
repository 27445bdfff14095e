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
