import { Box, Container, Flex, HStack, Spinner, Stack, Text } from '@chakra-ui/react';
import { BrandMark, SiteFooter } from './Brand';
import { LanguageSwitch } from './LanguageSwitch';

/**
 * A standalone page: the brand's header (with the language switch), the `<main>` landmark (target of the skip link) with a
 * centred card, mobile first (full width under `sm`), and the footer (contact, terms, privacy).
 */
export function PageLayout({ children, maxW = 'md' }: { children: React.ReactNode; maxW?: string }) {
  return (
    <Flex direction="column" minH="100dvh">
      <Box as="header" pt={{ base: '4', md: '8' }} px={{ base: '4', sm: '6' }}>
        <Container maxW={maxW} px="0">
          <HStack justify="space-between" gap="4">
            <BrandMark />
            <LanguageSwitch />
          </HStack>
        </Container>
      </Box>
      <Box as="main" id="main" tabIndex={-1} flex="1" py={{ base: '4', md: '6' }} px={{ base: '4', sm: '6' }} outline="none">
        <Container maxW={maxW} px="0">
          <Stack gap="6" bg="bg" borderRadius="l3" borderWidth={{ base: '0', sm: '1px' }} p={{ base: '4', sm: '8' }} boxShadow={{ sm: 'sm' }}>
            {children}
          </Stack>
        </Container>
      </Box>
      <SiteFooter />
    </Flex>
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
