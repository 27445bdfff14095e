import { Stack } from '@chakra-ui/react';
import { useLocation } from 'react-router';
import { progress, resolveFlow, stepByPath, type Flow, type FlowStep } from '@/core/flow';
import { StepIntro, StepPosition } from '@/engine/StepIntro';
import { DEFAULT_CONFIG } from '@/shared/api/hooks';
import { useT } from '@/shared/useT';

/**
 * What a step's HTML shell can show before the request is known: true for every request. The
 * position ("Pasul 3 din 10": no variant drops a step, `done` ones still count) always; the heading
 * unless a variant changes the step's title (the pricing step names the partner); the guidance
 * unless a variant changes the step's copy.
 */
export function shellParts(flow: Flow, step: FlowStep): { title: boolean; copy: boolean } {
  const patches = (flow.variants ?? []).map((v) => (step.id in v.steps ? v.steps[step.id] : undefined)).filter((p) => p !== undefined);
  const patched = (key: string) => patches.some((p) => p === null || key in p);
  return { title: !patched('title'), copy: !patched('copy') };
}

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
  const step = stepByPath(flow, pathname);
  if (!step) return null;
  const { position, total } = progress(resolveFlow({ ...flow, variants: [] }, { partner: null, activity: null, formData: {} }), step.id);
  const parts = shellParts(flow, step);
  const services = { t, legal: { termsUrl: DEFAULT_CONFIG.terms_url, privacyUrl: DEFAULT_CONFIG.privacy_url } };
  const shown: FlowStep = parts.copy ? step : { ...step, copy: undefined };
  return (
    <Stack gap="4">
      <StepPosition step={step} position={position} total={total} t={t} />
      {parts.title ? (
        <Stack gap="6" as="section" aria-labelledby={`${step.id}-title`}>
          <StepIntro step={shown} title={t(step.title)} services={services} />
        </Stack>
      ) : null}
    </Stack>
  );
}
