import { Alert, Heading, Text } from '@chakra-ui/react';
import type { FlowStep } from '@/core/flow';
import type { StepServices } from '../../widgets/types';
import { StepGuide } from './StepGuide';

/** "Pasul X din N" and the step's short name from the flow file (`name`), so the applicant knows where they are. */
export function StepPosition({ step, position, total, t }: { step: FlowStep; position: number; total: number; t: StepServices['t'] }) {
  return (
    <Text fontSize="sm" color="fg.muted">
      <span data-testid="wizard-progress">{t('steps:common.progress', { position, total })}</span>
      {step.name ? (
        <>
          {' · '}
          <Text as="span" fontWeight="semibold" data-testid="wizard-step-name">
            {t(step.name)}
          </Text>
        </>
      ) : null}
    </Text>
  );
}

/**
 * The top of a step's section: its heading, guidance and notice. Also what the step's HTML shell
 * shows before the app has loaded (src/pages/flow/StepShell.tsx, prerendered at build time), so the
 * app's first paint of the step draws the same text at the same place.
 */
export function StepIntro({ step, title, services }: { step: FlowStep; title: string; services: Pick<StepServices, 't' | 'legal'> }) {
  return (
    <>
      <Heading as="h1" size="xl" id={`${step.id}-title`}>
        {title}
      </Heading>
      <StepGuide step={step} services={services} />
      {step.copy?.notice ? (
        <Alert.Root status="info">
          <Alert.Indicator />
          <Alert.Description>{services.t(step.copy.notice)}</Alert.Description>
        </Alert.Root>
      ) : null}
    </>
  );
}

