import { currentStep, stepByPath, type Flow, type FlowStep } from '@/core/flow';
import type { RegistrationRequest } from '@/core/api-types';
import { preloadStepComponents } from '../../widgets/registry';
import type { StepLists } from '../../widgets/types';
import { requestFlow } from './request-flow';
import { stepValidator } from './validators';

/**
 * Starts downloading what a step renders with: its precompiled validator and the widgets and
 * fields its uiSchema names, and, with `lists`, the option lists those widgets draw with (their
 * `prefetch`). Resolves when the validator and the modules have arrived (a failed download resolves
 * too: the step shows that error itself when it renders); the lists are not waited for.
 */
export function preloadStep(step: Pick<FlowStep, 'schema' | 'uiSchema'>, lists?: StepLists): Promise<void> {
  const loads: Promise<unknown>[] = [preloadStepComponents(step.uiSchema, lists)];
  try {
    loads.push(stepValidator(step.schema));
  } catch (error) {
    loads.push(Promise.reject(error));
  }
  return Promise.all(loads).then(
    () => undefined,
    () => undefined,
  );
}

/** The step at `pathname` of the flow file as written (before variants): most often the step the user is on. */
export function preloadStepAt(flow: Flow, pathname: string, lists?: StepLists): Promise<void> {
  const step = stepByPath(flow, pathname);
  return step ? preloadStep(step, lists) : Promise.resolve();
}

/** The step the server says the request is at, with the variants the server applied (`requestFlow`). */
export function preloadCurrentStep(flow: Flow, request: RegistrationRequest, lists?: StepLists): Promise<void> {
  try {
    return preloadStep(currentStep(requestFlow(flow, request), request.step), lists);
  } catch {
    return Promise.resolve();
  }
}
