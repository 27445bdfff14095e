import { Box, Heading, Link, Stack, Text } from '@chakra-ui/react';
import type { FlowStep } from '@/core/flow';
import type { StepServices } from '../../widgets/types';

/**
 * A step's guidance from its flow file's copy: `intro` (what the step offers or asks, e.g. the card
 * step's offer), `privacyNote` (what the data is for, with the privacy page's link) and `tips` (one tip
 * per line, under `tipsTitle`), e.g. the identity step's photo tips (issue 17). Copy only: the step's
 * behaviour stays in its widget. Being the flow file's, the same for every request, it is also in the
 * step's prerendered shell (StepShell), on screen before the app has loaded (issue 14).
 */
export function StepGuide({ step, services }: { step: FlowStep; services: Pick<StepServices, 't' | 'legal'> }) {
  const { t } = services;
  const copy = step.copy ?? {};
  if (!copy.intro && !copy.privacyNote && !copy.tips) return null;
  const tips = copy.tips ? t(copy.tips).split('\n').filter(Boolean) : [];
  return (
    <Stack gap="3">
      {copy.intro ? <Text data-testid="step-intro">{t(copy.intro)}</Text> : null}
      {copy.privacyNote ? (
        <Text fontSize="sm" color="fg.muted" data-testid="step-privacy-note">
          {t(copy.privacyNote)}
          {services.legal ? (
            <>
              {' '}
              <Link href={services.legal.privacyUrl} target="_blank" rel="noopener" color="brand.fg" textDecoration="underline">
                {t('steps:common.privacyLink')}
              </Link>
            </>
          ) : null}
        </Text>
      ) : null}
      {tips.length ? (
        <Box as="section" aria-labelledby={`${step.id}-tips`} bg="bg.muted" borderRadius="l2" p="3">
          <Heading as="h2" size="sm" id={`${step.id}-tips`}>
            {t(copy.tipsTitle ?? 'steps:common.tipsTitle')}
          </Heading>
          <Box as="ul" ps="5" mt="1" listStyleType="disc" fontSize="sm">
            {tips.map((tip) => (
              <Box as="li" key={tip}>
                {tip}
              </Box>
            ))}
          </Box>
        </Box>
      ) : null}
    </Stack>
  );
}
