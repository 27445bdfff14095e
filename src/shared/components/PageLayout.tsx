import { Box, Container, Spinner, Stack, Text } from '@chakra-ui/react';

/**
 * A standalone page: the `<main>` landmark (target of the skip link) with a centred card,
 * mobile first (full width under `sm`).
 */
export function PageLayout({ children, maxW = 'md' }: { children: React.ReactNode; maxW?: string }) {
  return (
    <Box as="main" id="main" tabIndex={-1} minH="100dvh" py={{ base: '6', md: '12' }} px={{ base: '4', sm: '6' }} outline="none">
      <Container maxW={maxW} px="0">
        <Stack gap="6" bg="bg" borderRadius="l3" borderWidth={{ base: '0', sm: '1px' }} p={{ base: '4', sm: '8' }} boxShadow={{ sm: 'sm' }}>
          {children}
        </Stack>
      </Container>
    </Box>
  );
}

export function PageSpinner({ label }: { label: string }) {
  return (
    <Box role="status" aria-live="polite" display="flex" gap="3" alignItems="center" justifyContent="center" minH="50dvh" color="fg.muted">
      <Spinner size="md" aria-hidden="true" />
      <Text>{label}</Text>
    </Box>
  );
}
