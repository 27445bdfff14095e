export * from './types';
export { evaluate } from './conditions';
export { readPointer } from './pointer';
export { mergePatch, resolveFlow, type ResolvedFlow } from './resolve';
export { routedStepVersions, stepVersions, type StepVersion } from './versions';
export * from './navigation';
export { buildPayload, planSubmit, storedStepData, type SubmitPlan } from './payload';
export { requestContext } from './context';
export { formDataMeeting, previewContext, previewEntries, type PreviewEntry, type PreviewPartner, type PreviewState } from './preview';
