import { useState } from 'react';
import type { CaenService, OverviewUpdate, Profile, StepFormContext, StepServices } from '../types';
import { useLive } from '../shared/useLive';
import type { ProfileField } from './overview-rules';

/**
 * The names and CNP as edited inline on the overview: saved one at a time through
 * `caen.updateFormData` (which rejects with the server's field errors); the request reloads after.
 */
export function useProfileEdits(initial: Profile, caen: CaenService, services: Pick<StepServices, 't' | 'notify'>, reloadRequest: StepFormContext['reloadRequest']) {
  const [profile, setProfile] = useState<Profile>(initial);
  const live = useLive();

  async function save(field: ProfileField, value: string) {
    const result = await caen.updateFormData({ [field]: value } as OverviewUpdate);
    if (!live.current) return;
    setProfile((p) => ({ ...p, ...result.profile }));
    services.notify?.('success', services.t('steps:overview.saved'));
    void reloadRequest().catch(() => undefined);
  }

  return { profile, save };
}
