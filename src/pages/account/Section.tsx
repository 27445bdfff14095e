import { useId, type ReactNode } from 'react';
import { Heading, Stack } from '@chakra-ui/react';

/** One part of the "Datele tale" page: a region named by its h2. */
export function Section({ title, children, testId }: { title: string; children: ReactNode; testId?: string }) {
  const id = useId();
  return (
    <Stack as="section" aria-labelledby={id} gap="3" data-testid={testId}>
      <Heading as="h2" size="lg" id={id}>
        {title}
      </Heading>
      {children}
    </Stack>
  );
}

/** An item of a section: its heading (h3, or h4 under a sub-heading) and its sentences. */
export function Item({ title, children, testId, level = 'h3' }: { title: string; children: ReactNode; testId?: string; level?: 'h3' | 'h4' }) {
  return (
    <Stack as="li" gap="1" data-testid={testId}>
      <Heading as={level} size="sm">
        {title}
      </Heading>
      {children}
    </Stack>
  );
}
