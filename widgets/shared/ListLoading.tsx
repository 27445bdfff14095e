import { HStack, Spinner, Text } from '@chakra-ui/react';

/** A line inside a search list's dropdown saying it is loading ("Se caută…", "Se încarcă mai multe…"). */
export function ListLoading({ text, size = 'xs' }: { text: string; size?: 'xs' | 'sm' }) {
  return (
    <HStack px="3" py="2" gap="2">
      <Spinner size={size} />
      <Text fontSize="sm">{text}</Text>
    </HStack>
  );
}
