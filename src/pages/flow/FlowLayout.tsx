import { useMemo, useRef, useState } from 'react';
import { Box, Button, Container, Flex, HStack, Text } from '@chakra-ui/react';
import { Outlet } from 'react-router';
import { RegistrationType, type RegistrationTypeValue } from '@/core/registration';
import { STATIC_ROUTES } from '@/core/routes';
import { useLogout } from '@/shared/auth-actions';
import { BrandMark, SiteFooter } from '@/shared/components/Brand';
import { LanguageSwitch } from '@/shared/components/LanguageSwitch';
import { FlowProgressContext, type FlowProgress } from '@/shared/flow-progress';
import { useToastsBelow } from '@/shared/toaster';
import { useT } from '@/shared/useT';
// Only these two keys of each flow file reach this chunk (Vite's named JSON exports): the header's title is the flow's.
import { registrationType as newPfaType, title as newPfaTitle } from '../../../flows/new-pfa.json';
import { title as existingPfaTitle } from '../../../flows/existing-pfa.json';

/**
 * A flow wrapper (spec 000 §2.3 "Wrapper screens"): top bar with the brand, the flow title, the
 * language switch and the Logout action, the step progress bar, the nested step view and the footer (contact, terms, privacy). The wrong registration type never gets
 * here: the route's loader sends it to its own flow.
 */
export function FlowLayout({ registrationType }: { registrationType: RegistrationTypeValue }) {
  const t = useT('common');
  const logout = useLogout();
  const [busy, setBusy] = useState(false);
  const [progress, setProgress] = useState<FlowProgress>({ value: 0 });
  const progressApi = useMemo(() => ({ progress, setProgress }), [progress]);
  // The flow file's `title` (a `common:` key: the header shows before the wizard's copy is loaded).
  const title = t(registrationType === newPfaType ? newPfaTitle : existingPfaTitle);
  const progressLabel = progress.label ? `${t('flows.progress')}: ${progress.label}` : t('flows.progress');
  // Toasts show below the header, never over "Ieșire din cont".
  const header = useRef<HTMLElement>(null);
  useToastsBelow(header);

  return (
    <FlowProgressContext.Provider value={progressApi}>
      <Flex direction="column" minH="100dvh">
        <Box as="header" ref={header} bg="bg" borderBottomWidth="1px">
          <Container maxW="4xl" px={{ base: '4', sm: '6' }}>
            <HStack justify="space-between" gap="4" py="3">
              <HStack gap={{ base: '2', sm: '4' }} minW="0" flexWrap="wrap" rowGap="0">
                <BrandMark />
                <Text fontWeight="semibold" fontSize={{ base: 'sm', sm: 'md' }} color="fg.muted" data-testid="flow-title">
                  {title}
                </Text>
              </HStack>
              <HStack gap="2" flexShrink={0}>
                <LanguageSwitch />
                {/*
                  A form, so that the button works in a step page's prerendered shell too, before the
                  app has loaded: the browser posts it, the server answers 303 to /logout (its answer to
                  a form sent to a page) and the app there signs out. Once the app runs, it signs out here.
                */}
                <form
                  method="post"
                  action={STATIC_ROUTES.logout}
                  onSubmit={(event) => {
                    event.preventDefault();
                    setBusy(true);
                    void logout();
                  }}
                >
                  <Button type="submit" variant="outline" size="sm" disabled={busy}>
                    {t('logout')}
                  </Button>
                </form>
              </HStack>
            </HStack>
          </Container>
          {/*
            A plain progressbar, not Chakra's Progress: that one runs a zag state machine (and builds an
            Intl.NumberFormat) on every render of every step page, for a bar that only shows a width.
          */}
          <Box
            role="progressbar"
            aria-label={progressLabel}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={Math.round(progress.value)}
            aria-valuetext={progress.label ?? t('flows.progressNotStarted')}
            h="1.5"
            bg="bg.muted"
            overflow="hidden"
          >
            <Box h="full" bg="brand.solid" width={`${Math.min(100, Math.max(0, progress.value))}%`} transition="width 0.3s" />
          </Box>
        </Box>
        <Box as="main" id="main" tabIndex={-1} outline="none" flex="1" py={{ base: '6', md: '10' }}>
          <Container maxW="4xl" px={{ base: '4', sm: '6' }}>
            <Outlet />
          </Container>
        </Box>
        <SiteFooter />
      </Flex>
    </FlowProgressContext.Provider>
  );
}

export function ExistingFlowLayout() {
  return <FlowLayout registrationType={RegistrationType.existingCompany} />;
}

export function RequestingFlowLayout() {
  return <FlowLayout registrationType={RegistrationType.requestingCompany} />;
}
