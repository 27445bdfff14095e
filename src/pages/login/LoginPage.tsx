import { Box, Flex, HStack, Heading, Stack, Text, useChakraContext } from '@chakra-ui/react';
import { BrandMark, SiteFooter } from '@/shared/components/Brand';
import { LanguageSwitch } from '@/shared/components/LanguageSwitch';
import { useMediaQuery } from '../../../widgets/shared/useMediaQuery';
import { usePageTitle, useT } from '@/shared/useT';
import { BannerSlider } from './BannerSlider';
import { LoginForm, type LoginFormProps } from './LoginForm';

/** The sign-in screen: the form and, on wide screens, the banner slider beside it. */
export function LoginLayout({ subtitle, form }: { subtitle: string; form: LoginFormProps }) {
  const t = useT('auth');
  usePageTitle(t('login.pageTitle'));
  // The banner is drawn on wide screens only (a phone neither renders it nor runs its autoplay). The
  // HTML prerendered at build time has it, hidden below `lg` by its CSS until the script runs.
  const wide = useMediaQuery(useChakraContext().breakpoints.up('lg').replace(/^@media\s+/, ''), true);
  return (
    <Flex direction="column" minH="100dvh">
      <Flex as="main" id="main" tabIndex={-1} outline="none" flex="1" align="stretch">
        {/* On a phone the form starts at the top, as the other guest pages do: centred, it slid up while a
            slow phone painted the prerendered HTML in parts (issue 14: Lighthouse's CLS up to 0.11). */}
        <Flex flex="1" align={{ base: 'flex-start', md: 'center' }} justify="center" px={{ base: '4', sm: '8' }} py={{ base: '8', md: '12' }} bg="bg">
          <Stack gap="6" w="full" maxW="sm">
            <HStack justify="space-between" gap="4">
              <BrandMark />
              <LanguageSwitch />
            </HStack>
            <Stack gap="2">
              <Heading as="h1" size="2xl">
                {t('login.title')}
              </Heading>
              <Text color="fg.muted">{subtitle}</Text>
            </Stack>
            <LoginForm {...form} />
          </Stack>
        </Flex>
        {wide && (
          <Flex
            display={{ base: 'none', lg: 'flex' }}
            flex="1"
            align="center"
            justify="center"
            bg="brand.50"
            px="10"
            py="12"
          >
            <Box w="full" maxW="800px">
              <BannerSlider />
            </Box>
          </Flex>
        )}
      </Flex>
      <SiteFooter />
    </Flex>
  );
}

export function LoginPage() {
  const t = useT('auth');
  return <LoginLayout subtitle={t('login.subtitle')} form={{ mode: 'login' }} />;
}
