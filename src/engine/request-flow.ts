import { requestContext, resolveFlow, type Flow, type ResolvedFlow } from '@/core/flow';
import type { RegistrationRequest } from '@/core/api-types';

const resolved = new WeakMap<RegistrationRequest, { flow: Flow; resolved: ResolvedFlow }>();

/**
 * The flow file as it stands for one answer of the server: the variants the server applied to the
 * request (`variants`), not decided again here, and the steps' conditions on the request's data.
 * Resolved once per answer (and flow file): the wizard's render, its step guard and its preload of
 * the current step all read the same.
 */
export function requestFlow(flow: Flow, request: RegistrationRequest): ResolvedFlow {
  const kept = resolved.get(request);
  if (kept?.flow === flow) return kept.resolved;
  const flowOfRequest = resolveFlow(flow, requestContext(request), request.variants);
  resolved.set(request, { flow, resolved: flowOfRequest });
  return flowOfRequest;
}
