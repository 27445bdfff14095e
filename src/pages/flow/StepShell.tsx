import { Stack } from '@chakra-ui/react';
import { useLocation } from 'react-router';
import { progress, resolveFlow, stepByPath, type Flow, type FlowContext, type FlowStep } from '@/core/flow';
import { StepIntro, StepPosition } from '@/engine/StepIntro';
import { DEFAULT_CONFIG } from '@/shared/api/hooks';
import { useT } from '@/shared/useT';

/**
 * Whom a step's HTML shell is written for: an applicant no variant changes anything for (no partner,
 * no activity, nothing answered, not paid). The shell is built once for everyone, before the request
 * is known, so it shows the base text; the applicants a variant applies to (a partner's own copy of a
 * step, the pricing step's title naming the partner) get their variant's text as soon as the app has
 * resolved the flow for their request and draws the step in the shell's place (src/shared/shell.ts).
 * Unaffiliated: the flow files say what an applicant without a partner sees (the pricing title
 * without a partner's name), and that is the text without a partner in it.
 */
export const SHELL_CONTEXT: FlowContext = { partner: null, unaffiliated: true, paid: false, activity: null, formData: {} };

/** The step as the shell shows it: the flow resolved for `SHELL_CONTEXT` (a step it skips keeps its base text). */
export function shellStep(flow: Flow, step: FlowStep): FlowStep {
  return resolveFlow(flow, SHELL_CONTEXT).allSteps.find((s) => s.id === step.id) ?? step;
}

/** What only a request can fill into a title (StepRunner gives the partner's name): a title that needs it waits for the app. */
const REQUEST_ONLY = { partner: '\u0000' };

/**
 * The step part of a step page's HTML shell (issue 14, LCP): rendered at build time by
 * src/prerender.tsx inside the flow's header and footer (FlowLayout) for each step path of the flow
 * files, shown until the app has loaded the request and renders the step itself (src/shared/shell.ts).
 * The same components as the wizard (StepPosition, StepIntro), so the app draws the same text at the
 * same place. Not part of the browser bundle.
 */
export function StepShell({ flow }: { flow: Flow }) {
  const t = useT('common');
  const { pathname } = useLocation();
  const found = stepByPath(flow, pathname);
  if (!found) return null;
  const { position, total } = progress(resolveFlow({ ...flow, variants: [] }, SHELL_CONTEXT), found.id);
  const step = shellStep(flow, found);
  const titled = !t(step.title, REQUEST_ONLY).includes(REQUEST_ONLY.partner);
  const services = { t, legal: { termsUrl: DEFAULT_CONFIG.terms_url, privacyUrl: DEFAULT_CONFIG.privacy_url } };
  return (
    <Stack gap="4">
      <StepPosition step={step} position={position} total={total} t={t} />
      {titled ? (
        <Stack gap="6" as="section" aria-labelledby={`${step.id}-title`}>
          <StepIntro step={step} title={t(step.title)} services={services} />
        </Stack>
      ) : null}
    </Stack>
  );
}
