import { useEffect, useState } from 'react';
import type { FieldPathList } from '@rjsf/utils';
import type { CaenService, OfficeService, StepFormContext, StepServices } from '../types';
import { useLive } from '../shared/useLive';
import type { AddressType } from './overview-rules';

export interface HomeOfficeOptions {
  value: AddressType | undefined;
  onChange(value: { address_type: AddressType }, path: FieldPathList): void;
  path: FieldPathList;
  caen: Pick<CaenService, 'markAsLost' | 'officeServices'>;
  leaveFor: StepFormContext['leaveFor'];
  t: StepServices['t'];
  /** From the flow (`leaveReason`): the lost reason kept on leaving (`sediu-la-client`). */
  leaveReason: string;
}

/**
 * The registered-office choice (spec 001 §2 item 4, §4 "Office type"): at the product unless
 * chosen otherwise; choosing home opens the popup, where keeping returns to the product office and
 * choosing one of the services (seed data, `officeServices`) marks the request lost (the flow's
 * `leaveReason`, `sediu-la-client`) and leaves for that service's site.
 */
export function useHomeOffice({ value, onChange, path, caen, leaveFor, t, leaveReason }: HomeOfficeOptions) {
  const [dialogOpen, setDialogOpen] = useState(false);
  const [leaving, setLeaving] = useState<string | null>(null);
  const [leaveError, setLeaveError] = useState<string | null>(null);
  const [services, setServices] = useState<OfficeService[] | null>(null);
  const [servicesFailed, setServicesFailed] = useState(false);
  const live = useLive();

  // Office at the product unless chosen otherwise.
  useEffect(() => {
    if (value === undefined) onChange({ address_type: 1 }, path);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // The services, when the popup opens (until they are loaded; again after a failure).
  const loadServices = () => {
    if (services || !caen.officeServices) return;
    setServicesFailed(false);
    caen.officeServices().then(
      (list) => live.current && setServices(list),
      () => live.current && setServicesFailed(true),
    );
  };

  const choose = (next: AddressType) => {
    onChange({ address_type: next }, path);
    if (next === 2) {
      setLeaveError(null);
      setDialogOpen(true);
      loadServices();
    }
  };
  const keep = () => {
    setDialogOpen(false);
    onChange({ address_type: 1 }, path);
  };
  const leave = async (service: OfficeService) => {
    setLeaving(service.id);
    setLeaveError(null);
    try {
      await caen.markAsLost(leaveReason);
      // The button keeps its spinner while the browser leaves.
      leaveFor(service.url);
    } catch {
      if (live.current) {
        setLeaveError(t('steps:overview.leaveError'));
        setLeaving(null);
      }
    }
  };

  return { dialogOpen, leaving, leaveError, services, servicesFailed: servicesFailed || !caen.officeServices, choose, keep, leave };
}

export type HomeOffice = ReturnType<typeof useHomeOffice>;
