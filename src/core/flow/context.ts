import type { RegistrationRequest } from '../api-types';
import type { FlowContext } from './types';

/**
 * What a flow file's variants and conditions see of a request as the API returns it: its partner,
 * whether it is paid, its activity and its form data (by default the stored one; a step being
 * submitted passes the stored data with its own answers over it). The server passes its row in the
 * same shape (server/registration/model.ts), so browser and server decide variants alike.
 */
export function requestContext(
  request: Pick<RegistrationRequest, 'form_data' | 'paid'> & { partner: Pick<RegistrationRequest['partner'], 'slug' | 'is_unaffiliated'> },
  formData: Record<string, unknown> = request.form_data,
): FlowContext {
  const activity = request.form_data.activity;
  return {
    partner: request.partner.slug,
    unaffiliated: request.partner.is_unaffiliated,
    paid: request.paid,
    activity: typeof activity === 'string' ? activity : null,
    formData,
  };
}
