import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { stepNames, type Flow } from '@/core/flow';
import { FLOWS } from '@/engine/flows';
import { loadStepsNamespace } from '@/shared/i18n';
import type { ConsoleT } from './i18n';

/** The flow files in the console's order (the flow filter's). */
export const FLOW_LIST: Flow[] = Object.values(FLOWS);

export interface StepOption {
  value: string;
  label: string;
}

export interface StepNames {
  /** "Pasul 8 · Dosarul tău" for a step of a flow file; the identifier itself for one the file no longer has. */
  label(flowId: string, stepId: string): string;
  /** Each flow's steps in its file's order, named. */
  groups(flows: Flow[]): { flow: Flow; options: StepOption[] }[];
}

/**
 * Step names for operators: each step's position in its flow file and its name from the flow file
 * (`name`, else `title`, keys of the wizard's `steps` namespace, loaded here as the flow pages do).
 * The base flow's steps: the staff API counts positions in the file (server/routes/staff-dossiers.ts).
 * Until the namespace is in, a step shows as its identifier.
 */
export function useStepNames(t: ConsoleT): StepNames {
  const { i18n } = useTranslation();
  const [ready, setReady] = useState(() => i18n.hasResourceBundle(i18n.resolvedLanguage ?? 'ro', 'steps'));
  useEffect(() => {
    if (ready) return;
    let live = true;
    void loadStepsNamespace(i18n).then(() => live && setReady(true));
    return () => {
      live = false;
    };
  }, [ready, i18n]);

  return useMemo(() => {
    const named = (flow: Flow) =>
      stepNames(flow).map((s) => ({ value: s.id, label: ready ? t('stepLabel', { position: s.position, name: t(s.name) }) : s.id }));
    return {
      label(flowId, stepId) {
        const flow = FLOW_LIST.find((f) => f.id === flowId);
        return (flow && named(flow).find((o) => o.value === stepId)?.label) || stepId;
      },
      groups: (flows) => flows.map((flow) => ({ flow, options: named(flow) })),
    };
  }, [ready, t]);
}
