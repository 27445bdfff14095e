import { createContext, useContext } from 'react';

/** The wrapper's progress bar: the wizard reports its position here (empty until it does). */
export interface FlowProgress {
  /** 0 to 100. */
  value: number;
  /** Accessible text, e.g. "Pasul 2 din 10". */
  label?: string;
}

export interface FlowProgressApi {
  progress: FlowProgress;
  setProgress(progress: FlowProgress): void;
}

export const FlowProgressContext = createContext<FlowProgressApi>({ progress: { value: 0 }, setProgress: () => {} });

export function useFlowProgress(): FlowProgressApi {
  return useContext(FlowProgressContext);
}
