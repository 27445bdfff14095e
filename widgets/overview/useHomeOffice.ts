import { useEffect, useState } from 'react';
import type { FieldPathList } from '@rjsf/utils';
import type { CaenService, StepFormContext, StepServices } from '../types';
import { useLive } from '../shared/useLive';
import type { AddressType } from './overview-rules';

export interface HomeOfficeOptions {
  value: AddressType | undefined;
  onChange(value: { address_type: AddressType }, path: FieldPathList): void;
  path: FieldPathList;
  markAsLost: CaenService['markAsLost'];
  navigate: StepFormContext['navigate'];
  t: StepServices['t'];
  /** From the flow (`leaveReason`, `leaveRoute`): the lost reason kept and the route opened on leaving. */
  leaveReason: string;
  leaveRoute: string;
}

/**
 * The registered-office choice (spec 001 §4 "Office type"): at the product unless chosen
 * otherwise; choosing home opens the popup, where keeping returns to the product office and
 * leaving marks the request lost (the flow's `leaveReason`, `sediu-la-client`) and goes to the
 * flow's `leaveRoute` (the questionnaire info page).
 */
export function useHomeOffice({ value, onChange, path, markAsLost, navigate, t, leaveReason, leaveRoute }: HomeOfficeOptions) {
  const [dialogOpen, setDialogOpen] = useState(false);
  const [leaving, setLeaving] = useState(false);
  const [leaveError, setLeaveError] = useState<string | null>(null);
  const live = useLive();

  // Office at the product unless chosen otherwise.
  useEffect(() => {
    if (value === undefined) onChange({ address_type: 1 }, path);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const choose = (next: AddressType) => {
    onChange({ address_type: next }, path);
    if (next === 2) {
      setLeaveError(null);
      setDialogOpen(true);
    }
  };
  const keep = () => {
    setDialogOpen(false);
    onChange({ address_type: 1 }, path);
  };
  const leave = async () => {
    setLeaving(true);
    setLeaveError(null);
    try {
      await markAsLost(leaveReason);
      navigate(leaveRoute);
    } catch {
      if (live.current) setLeaveError(t('steps:overview.leaveError'));
    } finally {
      if (live.current) setLeaving(false);
    }
  };

  return { dialogOpen, leaving, leaveError, choose, keep, leave };
}

export type HomeOffice = ReturnType<typeof useHomeOffice>;
