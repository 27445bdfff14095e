import { useEffect, useRef, useState } from 'react';
import type { StepFormContext } from '../types';

/**
 * The power-of-attorney screen (spec 001 §4 "Documents step"): the first press of "next" shows it
 * (and records that it was seen: `acknowledge`), the second submits; a submit that did not leave
 * the step (server errors) goes back to the form.
 */
export function useAttorneyGuard(setSubmitGuard: StepFormContext['setSubmitGuard'], acknowledge: (() => Promise<void>) | undefined, submitting: boolean) {
  const [shown, setShown] = useState(false);
  const phase = useRef<'form' | 'shown' | 'submitting'>('form');
  const acknowledgeRef = useRef(acknowledge);
  useEffect(() => {
    acknowledgeRef.current = acknowledge;
  }, [acknowledge]);

  useEffect(() => {
    setSubmitGuard(async () => {
      if (phase.current === 'form') {
        phase.current = 'shown';
        setShown(true);
        try {
          await acknowledgeRef.current?.();
        } catch {
          // Seeing the screen is what matters; the record is tried again on the next first press.
        }
        return false;
      }
      phase.current = 'submitting';
      return true;
    });
    return () => setSubmitGuard(null);
  }, [setSubmitGuard]);

  const wasSubmitting = useRef(submitting);
  useEffect(() => {
    if (wasSubmitting.current && !submitting && phase.current === 'submitting') {
      phase.current = 'form';
      setShown(false);
    }
    wasSubmitting.current = submitting;
  }, [submitting]);

  const back = () => {
    phase.current = 'form';
    setShown(false);
  };

  return { shown, back };
}
