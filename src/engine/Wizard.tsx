import { memo, startTransition, useCallback, useEffect, useLayoutEffect, useState } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { Alert, Spinner, Stack } from '@chakra-ui/react';
import { routePath } from '@/core/routes';
import { currentStep, guardDecision, progress, stepByPath, type Flow, type ResolvedFlow } from '@/core/flow';
import type { RegistrationRequest } from '@/core/api-types';
import { revealWhenDrawn } from '@/shared/shell';
import type { RegistrationTypeValue } from '@/core/registration';
import type { StepServices } from '../../widgets/types';
import type { EngineApi } from './api';
import { FLOWS } from './flows';
import { preloadCurrentStep } from './preload';
import { requestFlow } from './request-flow';
import { StepRunner } from './StepRunner';
import { StepPosition } from './StepIntro';

export interface WizardProps {
  registrationType: RegistrationTypeValue;
  /** The flow file to run; default the bundled file of `registrationType` (flows/*.json). */
  flow?: Flow;
  api: EngineApi;
  services: StepServices;
  /**
   * How the wizard asks for the request when it mounts: the page's own way (the answer it asked for
   * ahead while its other chunks loaded, src/pages/flow/FlowStepsPage.tsx); without it `GET` of the
   * flow's `api.open`.
   */
  openRequest?(): Promise<RegistrationRequest>;
  /** Told when the server says the user took a stale step (another tab, a double click). */
  onStale?(): void;
  /** The position, for the wrapper's progress bar. */
  onProgress?(progress: { position: number; total: number; percent: number }): void;
  /** Leaving the wizard for another page (a submit branch such as the questionnaire's mark-as-lost). */
  onLeave?(path: string): void;
  /** Leaving the app for another site (the payment page); default `window.location.assign`. */
  onRedirect?(url: string): void;
}

/**
 * The wizard of one flow file, mounted at the flow's base path: loads the request, jumps to the
 * server's current step (the step guard: typing another step's URL lands on the current step),
 * reports the progress and runs the step. Memoized: the wrapper's progress bar re-rendering above
 * it does not re-render the step form (give it stable callbacks).
 */
export const Wizard = memo(function Wizard({ registrationType, flow: flowFile, api, services, openRequest, onStale, onProgress, onLeave, onRedirect }: WizardProps) {
  const flow = flowFile ?? FLOWS[registrationType];
  const location = useLocation();
  const navigate = useNavigate();
  const [request, setRequest] = useState<RegistrationRequest | null>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let live = true;
    (openRequest ? openRequest() : api.get<RegistrationRequest>(`${flow.api.open}?timestamp=${Date.now()}`)).then(
      // The current step's validator and widgets arrive before its first render: one render, not three.
      // In a transition, as the app's first render (src/main.tsx): React renders the step (rjsf, the
      // widgets' Chakra trees) in slices of ~5 ms instead of one long task (issue 14, TBT); the page's
      // shell stays on screen until that render is committed.
      async (r) => {
        await preloadCurrentStep(flow, r, services);
        if (live) startTransition(() => setRequest(r));
      },
      () => live && startTransition(() => setFailed(true)),
    );
    return () => {
      live = false;
    };
    // The services are the page's, made once: not a reason to ask for the request again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [api, flow, openRequest]);

  // The page's prerendered shell (src/shared/shell.ts) gives way once the wizard has drawn the step
  // (its widgets' options too: no spinner left), or the load error.
  const settled = failed || request !== null;
  useLayoutEffect(() => (settled ? revealWhenDrawn() : undefined), [settled]);

  // The flow as the server's answer has it (its variants), resolved once per answer.
  const resolved: ResolvedFlow | null = request ? requestFlow(flow, request) : null;
  const routeStep = resolved ? stepByPath(resolved, location.pathname) : null;
  const shown = resolved && routeStep && request && routeStep.id === request.steps.current.identifier ? progress(resolved, routeStep.id) : null;

  useEffect(() => {
    if (shown) onProgress?.(shown);
    // Report when the position changes.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [shown?.position, shown?.total]);

  const onRequest = useCallback(
    (next: RegistrationRequest, options?: { stale?: boolean }) => {
      setRequest(next);
      if (options?.stale) onStale?.();
      // The answer names where the request stands: go there (the guard would too, but not from an unguarded step).
      if (next.paid && flow.paidRoute) return;
      const current = currentStep(requestFlow(flow, next), next.step);
      if (current.path !== location.pathname) navigate(current.path, { replace: true });
    },
    [onStale, flow, location.pathname, navigate],
  );

  if (failed) {
    return (
      <Alert.Root status="error">
        <Alert.Indicator />
        <Alert.Description>{services.t('steps:common.loadError')}</Alert.Description>
      </Alert.Root>
    );
  }
  if (!request || !resolved) return <Spinner aria-label={services.t('steps:common.loading')} />;
  // A paid request of a flow with a `paidRoute` is past its steps (the new PFA: the status page).
  const paidPath = request.paid && flow.paidRoute ? routePath(flow.paidRoute) : null;
  if (paidPath) return <Navigate to={paidPath} replace />;

  const decision = guardDecision(resolved, routeStep?.id ?? null, request.step);
  if (decision.action === 'redirect') return <Navigate to={decision.path} replace />;
  const step = routeStep!;
  const { position, total } = progress(resolved, step.id);

  return (
    <Stack gap="4">
      <StepPosition step={step} position={position} total={total} t={services.t} />
      <StepRunner
        key={`${step.id}:${request.steps.current.identifier}`}
        flow={resolved}
        step={step}
        request={request}
        api={api}
        services={services}
        onRequest={onRequest}
        onLeave={(path) => {
          onLeave?.(path);
          navigate(path);
        }}
        onRedirect={onRedirect ?? ((url) => window.location.assign(url))}
      />
    </Stack>
  );
});
